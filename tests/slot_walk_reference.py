"""The calendar walk of ``slots_after`` as it was written first (a margin of two days
around each local midnight, a list of each day's slots), kept as the reference the
quicker walk must agree with, slot for slot."""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.scheduling.schedule_spec import ScheduleSpec

SEARCH_DAYS = 366 * 8 + 2
DAY_MARGIN = timedelta(days=2)


def _wall_times(spec: ScheduleSpec) -> tuple[time, ...]:
    return tuple(time(h, m) for h in sorted(spec.hours) for m in sorted(spec.minutes))


def _slots_on(spec: ScheduleSpec, tz: ZoneInfo, day: date) -> list[datetime]:
    if not spec.runs_on(day):
        return []
    return [datetime.combine(day, at, tzinfo=tz).astimezone(UTC) for at in _wall_times(spec)]


def reference_slots_after(spec: ScheduleSpec, tz: ZoneInfo, after: datetime) -> Iterator[datetime]:
    day = after.astimezone(tz).date() - timedelta(days=2)
    pending: list[datetime] = []
    last: datetime | None = None
    for _ in range(SEARCH_DAYS):
        for slot in _slots_on(spec, tz, day):
            heapq.heappush(pending, slot)
        day += timedelta(days=1)
        horizon = datetime.combine(day, time(), tzinfo=UTC) - DAY_MARGIN
        while pending and pending[0] < horizon:
            slot = heapq.heappop(pending)
            if slot > after and slot != last:
                last = slot
                yield slot
