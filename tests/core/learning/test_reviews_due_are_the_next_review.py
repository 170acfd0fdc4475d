"""A member with reviews due is never told "Due for review: 1" beside "Next review: —":
the next review is now, in `/quiz me` and on the member's page."""

from __future__ import annotations

import pytest

from bot.kernel.render import Card
from tests.harness import QuizHarness


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


def field(card: Card, name: str) -> str:
    [value] = [f.value for f in card.fields if f.name == name]
    return value


async def test_a_review_due_makes_the_next_review_now(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.answer("ann", "an answer")
    await quiz.react("ann", "💡")
    await quiz.command("grade missed", by="ann")
    quiz.clock.advance(days=60)  # the card is due, and nothing else is ahead
    me = (await quiz.command("me", by="ann")).card
    assert field(me, "Due for review") == "1"
    assert field(me, "Next review") == "now: `/quiz practice`"
    page = (await quiz.service.home.page(quiz.member("ann"))).card
    assert field(page, "Reviews due") == "1"
    assert field(page, "Next review") == "now: `/quiz practice`"
