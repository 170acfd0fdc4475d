"""Away periods and what they excuse.

A member away "until DATE" is away *through* that date: ``until`` is the last local date
away, inclusive, and they are back the day after. Periods are kept as history, because
streaks are recomputed from it: a scheduled round whose local date (in its channel's
timezone) falls inside one of the member's periods is excused, neither counting toward
nor breaking their streak (answered anyway, it counts).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo


@dataclass(frozen=True, slots=True)
class AwayPeriod:
    """Away from ``first`` through ``last`` (local dates, both included)."""

    first: date
    last: date

    def covers(self, day: date) -> bool:
        return self.first <= day <= self.last


def is_away(until: date | None, day: date) -> bool:
    """Whether a member whose latest period ends ``until`` (``AwayStore.until``) is away
    on ``day``, today or later: periods start when they are set, never ahead."""
    return until is not None and day <= until


def excused_rounds(
    scheduled: Sequence[tuple[int, datetime]], periods: Iterable[AwayPeriod], timezone: str
) -> frozenset[int]:
    """The ids of the scheduled rounds (id, scheduled_for) whose local date in
    ``timezone`` falls inside one of ``periods``."""
    spans = tuple(periods)
    if not spans:
        return frozenset()
    zone = ZoneInfo(timezone)
    return frozenset(
        round_id
        for round_id, moment in scheduled
        if any(span.covers(moment.astimezone(zone).date()) for span in spans)
    )
