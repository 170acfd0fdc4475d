"""Streaks with days away: a scheduled round of a day the member was away neither counts
nor breaks their streak; one they answered anyway counts. Rounds are excused by their
local date in the channel's timezone, inside a period through its last day."""

from __future__ import annotations

from datetime import UTC, date, datetime

from bot.away.periods import AwayPeriod, excused_rounds, is_away
from bot.kernel.scoring import Streak, streak


def test_excused_rounds_neither_count_nor_break() -> None:
    rounds = (1, 2, 3, 4, 5)
    assert streak(rounds, frozenset({1, 2, 5}), None) == Streak(current=1, best=2)
    kept = streak(rounds, frozenset({1, 2, 5}), None, excused=frozenset({3, 4}))
    assert kept == Streak(current=3, best=3)


def test_an_excused_round_answered_counts() -> None:
    assert streak((1, 2, 3), frozenset({1, 2, 3}), None, frozenset({2})) == Streak(3, 3)


def test_excused_latest_rounds_and_an_open_round() -> None:
    # away for the last two rounds: the streak before them is still current
    assert streak((1, 2, 3, 4), frozenset({1, 2}), None, frozenset({3, 4})).current == 2
    # back today, the open round not answered yet: it does not break either
    assert streak((1, 2, 3, 4), frozenset({1, 2}), 4, frozenset({3})).current == 2
    # a round missed before the days away still breaks
    assert streak((1, 2, 3, 4), frozenset({1, 4}), None, frozenset({3})) == Streak(1, 1)


def test_rounds_are_excused_by_their_local_date() -> None:
    scheduled = (
        (1, datetime(2026, 12, 1, 8, 0, tzinfo=UTC)),
        (2, datetime(2026, 12, 2, 8, 0, tzinfo=UTC)),
        (3, datetime(2026, 12, 2, 23, 30, tzinfo=UTC)),  # already the 3rd in Berlin
        (4, datetime(2026, 12, 4, 8, 0, tzinfo=UTC)),
    )
    period = [AwayPeriod(date(2026, 12, 3), date(2026, 12, 4))]  # through the 4th
    assert excused_rounds(scheduled, period, "Europe/Berlin") == frozenset({3, 4})
    assert excused_rounds(scheduled, period, "UTC") == frozenset({4})
    assert excused_rounds(scheduled, [], "UTC") == frozenset()


def test_away_through_the_date() -> None:
    last = date(2026, 12, 24)
    assert is_away(last, date(2026, 12, 1)) and is_away(last, last)
    assert not is_away(last, date(2026, 12, 25))
    assert not is_away(None, date(2026, 12, 1))
