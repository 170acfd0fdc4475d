"""The slots a schedule produces, in pure arithmetic: after, until, the next, the
previous, and the one missed slot to post late after downtime.

Slot arithmetic never reads the wall clock: every function takes the instant
it reasons about. Across daylight-saving changes a slot is the local wall time
resolved with ``fold=0`` (zoneinfo's default):

* a local time that does not exist (spring forward, e.g. 02:30 in Berlin on
  the last Sunday of March) fires once, shifted forward by the gap
  (03:30 local, the same instant APScheduler's CronTrigger picks);
* a local time that happens twice (fall back) fires once, at its first
  occurrence (summer time). APScheduler 3.11's CronTrigger fires such a slot
  twice, which is why the scheduler uses these functions as its trigger.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

if TYPE_CHECKING:  # the spec's module checks with next_slot that a spec ever fires
    from bot.scheduling.schedule_spec import ScheduleSpec

# Every valid schedule fires within this many days: 29 February can be 8 years away.
_SEARCH_DAYS = 366 * 8 + 2
# Slots of any later (earlier) local day lie beyond this margin around its midnight:
# UTC offsets span -12..+14 h and a skipped local day shifts by at most 24 h.
_DAY_MARGIN = timedelta(days=2)
_ONE_DAY = timedelta(days=1)
_TWO_DAYS = timedelta(days=2)
_MIDNIGHT = time()


@dataclass(frozen=True, slots=True)
class MissedSlot:
    """What to do about slots that passed while the bot was down.

    ``post`` is the one slot to post late now (None: nothing). ``skipped`` counts the
    older slots since the last round that will never be posted (capped at
    ``SKIPPED_COUNT_LIMIT`` + 1); ``oldest_skipped``/``newest_skipped`` bound them for a log line.
    """

    post: datetime | None
    skipped: int = 0
    oldest_skipped: datetime | None = None
    newest_skipped: datetime | None = None


SKIPPED_COUNT_LIMIT = 10_000
# nothing to post late and nothing skipped: the usual restart, once for each of 10,000 channels
_NOTHING_MISSED = MissedSlot(post=None)


def _require_aware(value: datetime, name: str) -> None:
    if value.utcoffset() is None:  # a naive datetime's too
        raise ValueError(f"{name} must be timezone-aware, got {value!r}")


def _slots_on(
    spec: ScheduleSpec, tz: ZoneInfo, day: date, times: tuple[time, ...]
) -> list[datetime]:
    """The UTC instants of the local day's slots (``times``, the spec's wall times), each
    wall time resolved with fold=0."""
    if not spec.runs_on(day):
        return []
    return [datetime.combine(day, at, tzinfo=tz).astimezone(UTC) for at in times]


def _midnight_utc_naive(day: date) -> datetime:
    return datetime.combine(day, _MIDNIGHT, tzinfo=UTC)


def slots_after(spec: ScheduleSpec, tz: ZoneInfo, after: datetime) -> Iterator[datetime]:
    """Slots strictly after ``after``, ascending, each once (UTC-aware).

    No slot of a later local day is below that day's midnight read as UTC minus one day
    (offsets stay under +16 h, a gap's time read with the offset before it): a pending
    slot below it is final. Inlined: start-up walks this for each of 10,000 channels."""
    _require_aware(after, "after")
    times = spec.wall_times
    runs_on, combine, push, pop = spec.runs_on, datetime.combine, heapq.heappush, heapq.heappop
    day = after.astimezone(tz).date() - _TWO_DAYS
    horizon = _midnight_utc_naive(day)  # of the next day to walk, minus _ONE_DAY
    end = horizon + _SEARCH_DAYS * _ONE_DAY - _DAY_MARGIN  # the search's reach, as before
    pending: list[datetime] = []
    last: datetime | None = None
    for _ in range(_SEARCH_DAYS):
        if runs_on(day):
            for at in times:
                push(pending, combine(day, at, tzinfo=tz).astimezone(UTC))
        day += _ONE_DAY
        while pending and pending[0] < horizon:
            slot = pop(pending)
            if slot >= end:
                return
            if slot > after and slot != last:
                last = slot
                yield slot
        horizon += _ONE_DAY


def slots_until(spec: ScheduleSpec, tz: ZoneInfo, at_or_before: datetime) -> Iterator[datetime]:
    """Slots at or before ``at_or_before``, descending, each once (UTC-aware)."""
    _require_aware(at_or_before, "at_or_before")
    times = spec.wall_times
    day = at_or_before.astimezone(tz).date() + _TWO_DAYS
    pending: list[tuple[float, datetime]] = []  # max-heap by negated timestamp
    last: datetime | None = None
    for _ in range(_SEARCH_DAYS):
        for slot in _slots_on(spec, tz, day, times):
            heapq.heappush(pending, (-slot.timestamp(), slot))
        horizon = _midnight_utc_naive(day) + _DAY_MARGIN  # no earlier day reaches above
        day -= _ONE_DAY
        while pending and pending[0][1] > horizon:
            _, slot = heapq.heappop(pending)
            if slot <= at_or_before and slot != last:
                last = slot
                yield slot


# The first slot after an instant as last worked out per (schedule, zone): the first slot
# after ``after`` is ``following``, so it is also the first after any instant in between.
# Start-up's catch-up works it out from each channel's last round and the scheduler asks
# again from now: one walk of the calendar for each of 10,000 schedules, not two.
# Keyed by the schedule's normalized text and the zone's name: the same pair is the same
# slots (as the scheduler's groups), and a string hashes once, a ScheduleSpec every time.
_FOLLOWING: dict[tuple[str, str], tuple[datetime, datetime]] = {}
_FOLLOWING_LIMIT = 65_536


def next_slot(spec: ScheduleSpec, tz: ZoneInfo, after: datetime) -> datetime | None:
    """The first slot strictly after ``after`` (UTC-aware), or None if it never fires."""
    if after.utcoffset() is None:  # checked inline: asked for each of 10,000 channels
        _require_aware(after, "after")
    if tz.key is None:  # a zone read from a file has no name to remember it by
        return next(slots_after(spec, tz, after), None)
    key = (spec.text, tz.key)
    known = _FOLLOWING.get(key)
    if known is not None and known[0] <= after < known[1]:
        return known[1]
    following = _slot_at_one_offset(spec, tz, after, later=True)
    if following is None:
        following = next(slots_after(spec, tz, after), None)
    if following is not None:
        if len(_FOLLOWING) >= _FOLLOWING_LIMIT:
            _FOLLOWING.clear()
        _FOLLOWING[key] = (after, following)
    return following


# Most first slots lie where the zone keeps one UTC offset: there a slot is its wall time
# less that offset, and the first after an instant is the first wall time after its local
# time, with no calendar walk (start-up asks for 10,000 channels' slots); the last slot at
# or before an instant likewise (the weekly catch-ups ask for a few hundred). The offset is
# read every PROBE_STEP from two days before the earlier of the instant and the slot to two
# days after the later (at least the walk's margins); two changes of offset closer than a
# step would go unseen, and the tz database has none closer than 3.9 days (a test checks
# the installed one). Each probe is a conversion into the zone: 400 zones read over weeks.
PROBE_STEP = timedelta(days=2)
_ONE_OFFSET_DAYS = 32  # a monthly slot (a season's turn) is found; a rarer one is left to the walk
# The span probed in each zone (by its name), less two days at either end, with the offset
# it keeps throughout, grown by the days beyond it that later questions with the same offset
# ask about: the channels of a zone (25 of 10,000 in each of 400) ask about nearly the same
# days.
_ONE_OFFSET_SPANS: dict[str, tuple[datetime, datetime, timedelta]] = {}
_SPAN_MARGIN = timedelta(days=4)
_NO_TIME = timedelta()


def _slot_at_one_offset(
    spec: ScheduleSpec, tz: ZoneInfo, instant: datetime, *, later: bool
) -> datetime | None:
    """The first slot after ``instant`` (``later``), or the latest at or before it, if the
    zone's offset holds around it, else None."""
    local = instant.astimezone(tz)
    offset = local.utcoffset()
    if offset is None:
        return None
    times, day = spec.wall_times, local.date()
    months, days, weekdays = spec.months, spec.days, spec.weekdays
    after_instant = bisect.bisect_right(times, local.time())  # the day's first time after it
    if later:
        index = after_instant if after_instant < len(times) else -1  # -1: none left that day
        step, first_of_a_day = _ONE_DAY, 0
    else:
        index = after_instant - 1  # -1: none yet that day
        step, first_of_a_day = -_ONE_DAY, len(times) - 1
    for _ in range(_ONE_OFFSET_DAYS):
        # spec.runs_on(day), inline: a day's weekday, day of month and month
        if index >= 0 and day.weekday() in weekdays and day.day in days and day.month in months:
            # the wall time read as UTC (its aware twin: no keyword to parse), less the offset
            slot = datetime.combine(day, spec.utc_wall_times[index]) - offset
            first, last = (instant, slot) if later else (slot, instant)
            return slot if _keeps_offset(tz, offset, first, last) else None
        day += step
        index = first_of_a_day
    return None


def _keeps_offset(tz: ZoneInfo, offset: timedelta, first: datetime, last: datetime) -> bool:
    """Whether ``tz`` has ``offset`` at every probe from two days before ``first`` to two
    days after ``last`` (the walk's margins)."""
    known = _ONE_OFFSET_SPANS.get(tz.key) if tz.key is not None else None
    if known is not None and known[0] <= first and last <= known[1]:
        return known[2] == offset
    start, end = first - _TWO_DAYS, last + _TWO_DAYS
    if known is not None:  # the span probed, without the margins kept off its ends
        known = (known[0] - _TWO_DAYS, known[1] + _TWO_DAYS, known[2])
    if known is not None and known[2] == offset and known[0] <= end and start <= known[1]:
        low, high = known[0], known[1]  # what was probed grows by the days beyond it
    elif start.astimezone(tz).utcoffset() != offset:
        return False
    else:
        low = high = start
    # a margin either side, probed while the offset holds: a zone's channels (25 of 10,000
    # in each of 400) ask about days a little apart, and each read two weeks again when
    # its days began a few hours before those already read
    if start <= low:
        low = _reach(tz, offset, low, start - _SPAN_MARGIN, -PROBE_STEP)
    if high < end:
        high = _reach(tz, offset, high, end + _SPAN_MARGIN, PROBE_STEP)
    if tz.key is not None:
        if len(_ONE_OFFSET_SPANS) >= _FOLLOWING_LIMIT:
            _ONE_OFFSET_SPANS.clear()
        # kept with the margins off, so that a question asks it with no arithmetic
        _ONE_OFFSET_SPANS[tz.key] = (low + _TWO_DAYS, high - _TWO_DAYS, offset)
    return low <= start and end <= high


def _reach(
    tz: ZoneInfo, offset: timedelta, edge: datetime, limit: datetime, step: timedelta
) -> datetime:
    """The furthest probe from ``edge`` (where ``tz`` has ``offset``) toward ``limit``, a
    ``step`` at a time, up to which the zone keeps ``offset``."""
    probe = edge + step
    while (probe >= limit) if step < _NO_TIME else (probe <= limit):
        if probe.astimezone(tz).utcoffset() != offset:
            break
        edge = probe
        probe += step
    return edge


@lru_cache(maxsize=256)  # start-up asks it for every channel, with the same instant
def previous_slot(spec: ScheduleSpec, tz: ZoneInfo, at_or_before: datetime) -> datetime | None:
    """The latest slot at or before ``at_or_before`` (UTC-aware), or None."""
    if at_or_before.utcoffset() is None:  # checked inline: asked for each of 10,000 channels
        _require_aware(at_or_before, "at_or_before")
    latest = _slot_at_one_offset(spec, tz, at_or_before, later=False)
    return latest if latest is not None else next(slots_until(spec, tz, at_or_before), None)


def missed_slot(
    spec: ScheduleSpec,
    tz: ZoneInfo,
    now: datetime,
    grace: timedelta,
    last_round_at: datetime | None,
) -> MissedSlot:
    """Decide, after downtime, which single slot to post late.

    The latest slot at or before ``now`` is posted when it is at most ``grace`` old
    and no round exists at or after it (``last_round_at`` is the ``scheduled_for``
    of the channel's latest round, None when it has none). Every other slot after
    ``last_round_at`` is skipped; with no round at all only the latest slot counts.
    Never more than one slot is posted.
    """
    if now.utcoffset() is None:  # checked inline: asked for each of 10,000 channels
        _require_aware(now, "now")
    if last_round_at is not None:
        following = next_slot(spec, tz, last_round_at)
        if following is None or following > now:
            return _NOTHING_MISSED  # no slot since the last round: the usual restart
    latest = previous_slot(spec, tz, now)
    if latest is None or (last_round_at is not None and last_round_at >= latest):
        return _NOTHING_MISSED
    post = latest if now - latest <= grace else None
    skipped: list[datetime] = []  # oldest first, at most SKIPPED_COUNT_LIMIT
    if last_round_at is not None:
        for slot in slots_after(spec, tz, last_round_at):
            if slot >= latest or len(skipped) >= SKIPPED_COUNT_LIMIT:
                break
            skipped.append(slot)
    if post is None:
        skipped.append(latest)
    return MissedSlot(
        post=post,
        skipped=len(skipped),
        oldest_skipped=skipped[0] if skipped else None,
        newest_skipped=skipped[-1] if skipped else None,
    )
