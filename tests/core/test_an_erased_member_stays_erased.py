"""After ``/quiz forget me`` nothing brings the member back, on both store backends: their
answer delivered again under a new event id, or edited, stores nothing: no answer, no
name."""

from __future__ import annotations

import pytest

from bot.kernel.events import Reply
from bot.kernel.refs import MessageRef, ThreadRef
from questions.catalog import Catalog
from tests.core.test_peer_reviews import catalog_with_key_points
from tests.harness import QuizHarness


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


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
    ann = await quiz.service.store.answers.member_id(quiz.member("ann"))

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
