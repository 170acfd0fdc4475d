"""The weekly recap names who earned points for quality that week: the key points
teammates' reviews judged their answers covered, most first."""

from __future__ import annotations

import pytest

from questions.catalog import Catalog
from tests.core.recaps.test_recap import (
    FRIDAY_RECAP,
    day,
    field,
    recaps,
    scheduled_round,
    send_recap,
)
from tests.core.reviews.test_peer_reviews import catalog_with_key_points
from tests.core.reviews.test_points_follow_quality import review
from tests.harness import QuizHarness


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


async def test_the_recap_names_the_weeks_points_for_quality(quiz: QuizHarness) -> None:
    quiz.clock.set(day(0, hour=0))
    await quiz.command("schedule weekdays 09:00 UTC")
    await scheduled_round(quiz, day(0))
    await quiz.answer("alice", "a careful answer")
    await quiz.answer("bob", "a fair answer")
    await quiz.answer("carol", "a one-liner")
    await quiz.command("reveal")
    await review(quiz, "dave", 1, "1 2 3 4 5")  # Alice's answer, before the reveal: 15
    await review(quiz, "dave", 2, "1 2")  # Bob's: 15 x 2/5

    await send_recap(quiz, FRIDAY_RECAP)

    [sent] = recaps(quiz.platform)
    assert field(sent.card, "Points for quality") == (
        "Alice 15, Bob 6 (for the key points teammates' reviews judged their answers covered)"
    )


async def test_a_week_without_judged_ticks_says_how_to_earn_them(quiz: QuizHarness) -> None:
    quiz.clock.set(day(0, hour=0))
    await quiz.command("schedule weekdays 09:00 UTC")
    await scheduled_round(quiz, day(0))
    await quiz.answer("alice", "an answer")
    await quiz.command("reveal")
    await quiz.command("covered 1 2 3 4 5", by="alice")  # her own ticks earn nothing

    await send_recap(quiz, FRIDAY_RECAP)

    [sent] = recaps(quiz.platform)
    assert field(sent.card, "Points for quality").startswith("None yet: a review that ticks")
