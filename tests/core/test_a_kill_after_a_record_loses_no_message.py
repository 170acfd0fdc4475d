"""A process killed right after it recorded a member's action loses none of the messages
the action causes, on both backends: the best answer's post, the review's note to the
author. Each is queued with its cause, so whoever runs the outbox next (the restarted
process, another replica) sends it.

A kill is a ``SimulatedCrash`` (a ``BaseException``, as the process dying is: nothing
after it runs) raised as the store call that records the cause returns.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from questions.catalog import Catalog
from tests.core.test_peer_reviews import (
    catalog_with_key_points,
    direct_to,
    revealed_round_with_answers,
)
from tests.fakes import SimulatedCrash
from tests.harness import QuizHarness


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


def killed_after(monkeypatch: pytest.MonkeyPatch, aggregate: object, method: str) -> None:
    """The process dies as the next call of ``aggregate.method`` returns (once)."""
    original: Callable[..., Awaitable[Any]] = getattr(aggregate, method)

    async def then_killed(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(aggregate, method, original)
        await original(*args, **kwargs)
        raise SimulatedCrash(method)

    monkeypatch.setattr(aggregate, method, then_killed)


def killed_before(monkeypatch: pytest.MonkeyPatch, aggregate: object, method: str) -> None:
    """The process dies as ``aggregate.method`` is next called (once), before it runs."""
    original: Callable[..., Awaitable[Any]] = getattr(aggregate, method)

    async def killed(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(aggregate, method, original)
        raise SimulatedCrash(method)

    monkeypatch.setattr(aggregate, method, killed)


async def best_posts(quiz: QuizHarness) -> list[str]:
    thread = await quiz.thread()
    return [
        m.card.title
        for m in quiz.platform.in_thread(thread)
        if m.card.title.startswith("Best answer")
    ]


async def test_a_best_answer_recorded_before_a_kill_is_posted(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await revealed_round_with_answers(quiz)
    killed_after(monkeypatch, quiz.service.store.reviews, "mark_best")
    with pytest.raises(SimulatedCrash):
        await quiz.command("best #2")

    again = await quiz.command("best #2")  # the admin tries again, on the restarted process

    assert "already" in again.card.plain_text()
    assert await best_posts(quiz) == ["Best answer: Bob"]


async def test_a_best_answer_marked_again_is_posted_again(quiz: QuizHarness) -> None:
    await revealed_round_with_answers(quiz)
    for number in (1, 2, 1):
        await quiz.command(f"best #{number}")
    await quiz.command("best #1")  # already the best: nothing new
    assert await best_posts(quiz) == ["Best answer: Ann", "Best answer: Bob", "Best answer: Ann"]


async def test_changes_of_the_best_answer_before_any_post_post_the_last_once(
    quiz: QuizHarness,
) -> None:
    await revealed_round_with_answers(quiz)
    for number in (1, 2, 1):
        await quiz.command(f"best #{number}", settle=False)
    await quiz.service.settle()
    assert await best_posts(quiz) == ["Best answer: Ann"]


async def test_the_author_of_an_answer_reviewed_before_a_kill_is_told(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await revealed_round_with_answers(quiz)
    killed_after(monkeypatch, quiz.service.store.reviews, "record_review")
    with pytest.raises(SimulatedCrash):
        await quiz.command("rate #1 3 clear on the ring", by="bob")

    await quiz.service.settle()  # the restarted process runs its outbox

    [told] = direct_to(quiz, "ann")
    assert "A teammate reviewed your answer" in told.body
    assert {f.name: f.value for f in told.fields}["Comment"] == "clear on the ring"
