"""The practice forecast's arithmetic on plain numbers is the fsrs package's: every review
and recall it computes equals what ``Scheduler.review_card`` and
``get_card_retrievability`` give for the same card, grade and time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot import memory_model
from bot.grades import Grade
from bot.practice_forecast import DAY, recall_at, review_at, state_of

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("first", list(Grade))
@pytest.mark.parametrize("second", list(Grade))
@pytest.mark.parametrize("days_later", [0.2, 1.0, 3.5, 17.0, 120.0])
def test_reviews_and_recall_match_the_package(
    first: Grade, second: Grade, days_later: float
) -> None:
    card = memory_model.review(1, None, first, NOW)
    state = review_at(None, first.rating, 0.0)
    assert state == state_of(card, NOW)
    at = NOW + timedelta(days=days_later)
    offset = (at - NOW) / DAY
    assert recall_at(state, offset) == pytest.approx(memory_model.recall(card, at), abs=1e-12)
    again = memory_model.review(1, card, second, at)
    assert review_at(state, second.rating, offset) == pytest.approx(state_of(again, NOW))


def test_a_never_graded_question_is_recalled_with_the_prior() -> None:
    assert recall_at(None, 30.0) == memory_model.PRIOR_RECALL
    assert recall_at(None, 30.0, prior=0.3) == 0.3
