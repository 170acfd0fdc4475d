"""FSRS's minute-long learning and relearning steps are configured away: a question is
asked at most once a day, so every grade schedules the next review whole days later."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Scheduler, State

from bot.kernel.grades import Grade
from bot.learning import memory_model

AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("grade", list(Grade))
def test_a_first_grade_comes_back_whole_days_later(grade: Grade) -> None:
    card = memory_model.review(1, None, grade, AT)
    assert card.due - AT >= timedelta(days=1)
    assert (card.due - AT) % timedelta(days=1) == timedelta(0)


def test_a_lapse_comes_back_whole_days_later_not_in_minutes() -> None:
    learned = memory_model.review(1, None, Grade.GOOD, AT)
    later = AT + timedelta(days=10)
    lapsed = memory_model.review(1, learned, Grade.MISSED, later)
    assert lapsed.due - later >= timedelta(days=1)
    assert (lapsed.due - later) % timedelta(days=1) == timedelta(0)
    # what the package does by default instead: a relearning step of minutes
    default = Scheduler(enable_fuzzing=False)
    card, _ = default.review_card(memory_model.to_fsrs(learned), Grade.MISSED.rating, later)
    assert card.state == State.Relearning and card.due - later < timedelta(hours=1)
