"""Skipped days: a channel's local dates with no scheduled question (holidays).

An admin skips dates with ``/quiz schedule skip DATE[..DATE]``; a slot whose local date
(in the channel's timezone) is skipped does not post, neither when it fires nor when it
is caught up after downtime, so no round exists that day and nobody's streak can break
on it. A round already posted on a date skipped later stays.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import date, datetime
from itertools import islice
from typing import Protocol
from zoneinfo import ZoneInfo

from bot.scheduling.schedule_spec import ScheduleSpec
from bot.scheduling.slot_arithmetic import slots_after

# How many slots /quiz schedule looks through for the next one that posts (a year of
# daily slots, so a year skipped at most, the longest range one skip takes, is passed).
SLOTS_LOOKED_AHEAD = 400


class SkippedDayStore(Protocol):
    """Persistence of the channels' skipped days. Every write is committed before the
    call returns."""

    async def skipped_days(
        self, channel_id: int, first: date, last: date | None = None
    ) -> list[date]:
        """The channel's skipped dates from ``first`` (through ``last``, if given), oldest
        first."""
        ...

    async def is_skipped(self, channel_id: int, day: date) -> bool: ...

    async def skip_days(self, channel_id: int, days: Sequence[date], at: datetime) -> int:
        """Skip each of ``days`` (those already skipped stay); how many were added."""
        ...

    async def unskip_days(self, channel_id: int, days: Sequence[date]) -> int:
        """Post on each of ``days`` again; how many had been skipped."""
        ...


def slot_day(slot: datetime, zone: ZoneInfo) -> date:
    """The local date of a slot in the channel's timezone."""
    return slot.astimezone(zone).date()


def next_posting_slot(
    spec: ScheduleSpec, zone: ZoneInfo, after: datetime, skipped: Collection[date]
) -> datetime | None:
    """The first slot after ``after`` whose local date is not skipped."""
    for slot in islice(slots_after(spec, zone, after), SLOTS_LOOKED_AHEAD):
        if slot_day(slot, zone) not in skipped:
            return slot
    return None


def without_skipped(days: Iterable[date], skipped: Collection[date]) -> set[date]:
    return {day for day in days if day not in skipped}
