"""After ``/quiz forget me`` nothing brings the member back, on both store backends: a
message already queued for a teammate that names them (a named review's notice, a mock
interview's intro, the brief about them) is not sent, while a queued message that does
not name them still is; and their answer delivered again under a new event id, or edited,
stores nothing: no answer, no name."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.kernel.errors import PlatformError
from bot.kernel.events import Reply
from bot.kernel.refs import ChannelRef, MessageRef, ThreadRef
from questions.catalog import Catalog
from tests.core.pairing.test_pairing import briefs, intros, opted_in
from tests.core.reviews.test_peer_reviews import (
    catalog_with_key_points,
    revealed_round_with_answers,
)
from tests.harness import QuizHarness


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


async def after_the_outage(quiz: QuizHarness) -> None:
    """The platform answers again: every send put off by a failure is retried."""
    quiz.clock.advance(minutes=30)
    await quiz.service.settle()


def sends_naming(quiz: QuizHarness, name: str) -> list[str]:
    return [m.card.plain_text() for m in quiz.platform.messages if name in m.card.plain_text()]


async def test_a_queued_notice_of_a_named_review_is_not_sent(quiz: QuizHarness) -> None:
    await quiz.command("config reviews named")
    await revealed_round_with_answers(quiz)  # ann's answer is #1, bob's #2
    quiz.platform.failures.append(PlatformError("DMs down for a while"))
    await quiz.command("rate #2 4 clear", by="ann")  # "Ann reviewed your answer", queued
    assert sends_naming(quiz, "Ann reviewed") == []

    await quiz.command("forget me confirm", by="ann")
    await after_the_outage(quiz)

    assert sends_naming(quiz, "Ann") == []


def failing_after_open_shared(quiz: QuizHarness, sends: int) -> Callable[..., Awaitable[Any]]:
    """The platform's ``open_shared``, after which the next ``sends`` sends fail: the
    pairing is made and its intro and briefs are queued, not sent."""
    opened = quiz.platform.open_shared

    async def open_shared(*args: Any, **kwargs: Any) -> ChannelRef:
        where = await opened(*args, **kwargs)
        quiz.platform.failures.extend(PlatformError("DMs down") for _ in range(sends))
        return where

    return open_shared


async def test_a_queued_intro_and_brief_naming_the_member_are_not_sent(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await opted_in(quiz, "ann", "bob", "cat")
    monkeypatch.setattr(quiz.platform, "open_shared", failing_after_open_shared(quiz, 4))
    await quiz.command("pair now")  # one trio: its intro and three briefs are queued
    assert intros(quiz.platform) == [] and briefs(quiz.platform) == {}

    await quiz.command("forget me confirm", by="ann")
    await after_the_outage(quiz)

    assert sends_naming(quiz, "Ann") == []
    assert intros(quiz.platform) == []  # it names her
    # the brief to ann goes with her DMs, the one about her is dropped; the third member's
    # brief names someone else and is sent
    [(interviewer, brief)] = briefs(quiz.platform).items()
    assert interviewer in ("bob", "cat") and "Ann" not in brief.card.plain_text()


async def answer_again(quiz: QuizHarness, message: str, text: str, *, edited: bool) -> None:
    """The member's answer ``message`` delivered with a new event id."""
    await quiz.service.handle(
        Reply(
            quiz.event_id(),
            quiz.channel,
            ThreadRef(quiz.channel, await quiz.thread()),
            MessageRef(quiz.channel, message),
            quiz.member("ann"),
            text,
            edited=edited,
        )
    )
    await quiz.service.settle()


@pytest.mark.parametrize("mode", ["open", "blind"])
async def test_an_erased_answer_delivered_again_stores_nothing(
    quiz: QuizHarness, mode: str
) -> None:
    await quiz.command(f"config answers {mode}")
    await quiz.command("now")
    first = await quiz.answer("ann", "ann's first take")
    second = await quiz.answer("ann", "ann's second take")
    await quiz.answer("bob", "bob's take")
    ann = await quiz.service.store.members.member_id(quiz.member("ann"))

    await quiz.command("forget me confirm", by="ann")
    for message in (first, second):
        await answer_again(quiz, message, "the same words", edited=False)
        await answer_again(quiz, message, "edited words", edited=True)

    answers = await quiz.service.store.answers.round_answers((await quiz.round()).id)
    assert [a.text for a in answers] == ["bob's take"]
    tables = await quiz.service.store.member_data.member_tables(ann)
    assert tables["members"][0]["display_name"] == ""
    assert tables["answers"] == []


async def test_a_member_who_comes_back_answers_again(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.answer("ann", "before")
    await quiz.command("forget me confirm", by="ann")

    await quiz.answer("ann", "after coming back")

    answers = await quiz.service.store.answers.round_answers((await quiz.round()).id)
    assert [(a.member_name, a.text) for a in answers] == [("Ann", "after coming back")]
