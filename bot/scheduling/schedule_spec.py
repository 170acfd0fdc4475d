"""Schedules as admins type them, and the slots they produce, in pure arithmetic.

``/quiz schedule SPEC [TZ]`` accepts ``weekdays 09:30``, ``daily 10:00``,
``mon,wed,fri 09:00`` (names or ranges such as ``mon-fri``) or a 5-field cron
expression such as ``0 9 * * 1-5`` (cron numbering: 0 and 7 are Sunday).

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

import heapq
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import cache, lru_cache
from zoneinfo import ZoneInfo, available_timezones

from apscheduler.triggers.cron import CronTrigger

from bot.kernel.errors import QuizError
from bot.kernel.quoting import quoted

USAGE = (
    "Use: weekdays HH:MM | daily HH:MM | mon,wed,fri HH:MM | "
    "a 5-field cron such as '0 9 * * 1-5'. "
    "Example: /quiz schedule weekdays 09:30 Europe/Berlin"
)

WEEKDAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_FULL_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")

_DAY_WORDS: dict[str, frozenset[int]] = {
    "weekdays": frozenset(range(5)),
    "weekday": frozenset(range(5)),
    "weekends": frozenset({5, 6}),
    "weekend": frozenset({5, 6}),
    "daily": frozenset(range(7)),
    "everyday": frozenset(range(7)),
}
_TIME = re.compile(r"(\d{1,2}):(\d{2})")
_CRON_ITEM = re.compile(r"(?P<range>\*|[a-z0-9]+(?:-[a-z0-9]+)?)(?:/(?P<step>[0-9]+))?")
# Longer digit strings are out of range anyway, and int() refuses those past 4,300 digits.
_MAX_DIGITS = 4

# Every valid schedule fires within this many days: 29 February can be 8 years away.
_SEARCH_DAYS = 366 * 8 + 2
# Slots of any later (earlier) local day lie beyond this margin around its midnight:
# UTC offsets span -12..+14 h and a skipped local day shifts by at most 24 h.
_DAY_MARGIN = timedelta(days=2)
_ONE_DAY = timedelta(days=1)
_TWO_DAYS = timedelta(days=2)
_MIDNIGHT = time()
_REFERENCE = datetime(2000, 1, 1, tzinfo=UTC)
_UTC_ZONE = ZoneInfo("UTC")


class ScheduleError(QuizError, ValueError):
    """A schedule or timezone an admin typed is wrong; the message says how to write it."""


def _schedule_error(problem: str) -> ScheduleError:
    return ScheduleError(f"{problem}. {USAGE}")


@dataclass(frozen=True, slots=True)
class ScheduleSpec:
    """A parsed schedule.

    ``text`` is the normalized form for display ("weekdays 09:30", "0 9 * * 1-5").
    ``minute``/``hour``/``day``/``month``/``day_of_week`` are APScheduler CronTrigger
    fields (day_of_week in names, so Monday is ``mon`` whatever the input numbering).
    The frozensets are the matching values; ``weekdays`` uses Python's 0 = Monday.
    """

    text: str
    minute: str
    hour: str
    day: str
    month: str
    day_of_week: str
    minutes: frozenset[int]
    hours: frozenset[int]
    days: frozenset[int]
    months: frozenset[int]
    weekdays: frozenset[int]

    def cron_fields(self) -> dict[str, str]:
        """Keyword arguments for ``apscheduler.triggers.cron.CronTrigger``."""
        return {
            "minute": self.minute,
            "hour": self.hour,
            "day": self.day,
            "month": self.month,
            "day_of_week": self.day_of_week,
        }

    def runs_on(self, day: date) -> bool:
        return day.month in self.months and day.day in self.days and day.weekday() in self.weekdays


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


# ---------------------------------------------------------------- parsing


@lru_cache(maxsize=1024)
def parse_schedule(text: str) -> ScheduleSpec:
    """Parse a schedule as typed after ``/quiz schedule`` (without the timezone).

    Cached: thousands of channels share a handful of schedules, and parsing one
    (its check against APScheduler's CronTrigger included) costs about 0.1 ms. The
    spec is immutable, so channels with the same schedule share one.
    """
    words = text.lower().split()
    if not words:
        raise _schedule_error("the schedule is empty")
    if ":" in words[-1]:
        return _parse_days_and_time(text, "".join(words[:-1]), words[-1])
    if len(words) == 5:
        return _parse_cron(words)
    typed = text.split()
    if len(typed) >= 2 and ":" in typed[-2] and typed[-1].isalpha():
        parse_timezone(typed[-1])  # a word after the time is a timezone: say if unknown
    raise _schedule_error(f"unknown schedule {quoted(text.strip())}")


@lru_cache(maxsize=1024)
def parse_timezone(name: str) -> ZoneInfo:
    """An IANA timezone by name (case-insensitive), or a ScheduleError with an example.

    Only names of the tz database's zones are looked up: ZoneInfo would read any
    path it is given, and a folder (``America/Argentina``) or an overlong name raises
    OSError instead of ZoneInfoNotFoundError. Cached (a refused name is not): start-up
    asks it for each channel's question and recap schedule, of a few dozen zones.
    """
    cleaned = name.strip()
    key = _zone_keys().get(cleaned.lower())
    if key is None:
        raise ScheduleError(
            f"unknown timezone {quoted(cleaned)}. Use an IANA name such as Europe/Berlin, "
            "America/New_York or UTC. Example: /quiz schedule weekdays 09:30 Europe/Berlin"
        )
    return ZoneInfo(key)


def is_timezone_name(word: str) -> bool:
    """Whether ``word`` names a zone of the tz database (``EST`` and ``Japan`` too)."""
    return word.strip().lower() in _zone_keys()


@cache
def _zone_keys() -> dict[str, str]:
    """Every zone name of the tz database, by its lower-case form."""
    return {key.lower(): key for key in available_timezones() if key != "localtime"}


def _parse_days_and_time(text: str, day_part: str, time_part: str) -> ScheduleSpec:
    match = _TIME.fullmatch(time_part)
    if match is None:
        raise _schedule_error(f"invalid time {quoted(time_part)}: write it as HH:MM, e.g. 09:30")
    hour, minute = int(match[1]), int(match[2])
    if hour > 23 or minute > 59:
        raise _schedule_error(
            f"invalid time {quoted(time_part)}: use 24-hour time from 00:00 to 23:59"
        )
    if not day_part:
        raise _schedule_error(
            f"the days are missing before {quoted(time_part)} in {quoted(text.strip())}"
        )
    weekdays = _DAY_WORDS.get(day_part)
    if weekdays is None:
        weekdays = _parse_day_list(day_part, text)
    return _build(
        text=f"{_describe_days(weekdays)} {hour:02d}:{minute:02d}",
        weekdays=weekdays,
        minutes=frozenset({minute}),
        hours=frozenset({hour}),
        days=frozenset(range(1, 32)),
        months=frozenset(range(1, 13)),
    )


def _weekday_number(word: str) -> int | None:
    if word in WEEKDAY_NAMES:
        return WEEKDAY_NAMES.index(word)
    if word in _FULL_WEEKDAY_NAMES:
        return _FULL_WEEKDAY_NAMES.index(word)
    return None


def _parse_day_list(day_part: str, text: str) -> frozenset[int]:
    chosen: set[int] = set()
    for item in day_part.split(","):
        first_word, _, last_word = item.partition("-")
        first = _weekday_number(first_word)
        last = _weekday_number(last_word) if last_word else first
        if first is None or last is None:
            bad = first_word if first is None else last_word
            raise _schedule_error(
                f"unknown day {quoted(bad)} in {quoted(text.strip())} "
                "(use weekdays, weekends, daily or day names mon..sun)"
            )
        if first > last:
            raise _schedule_error(
                f"day range {quoted(item)} runs backwards; write it Monday first, e.g. mon-fri"
            )
        chosen.update(range(first, last + 1))
    return frozenset(chosen)


def _describe_days(weekdays: frozenset[int]) -> str:
    for word in ("weekdays", "weekends", "daily"):
        if weekdays == _DAY_WORDS[word]:
            return word
    return ",".join(WEEKDAY_NAMES[d] for d in sorted(weekdays))


def _compact(values: frozenset[int], lowest: int, highest: int, names: tuple[str, ...] = ()) -> str:
    """A CronTrigger field for ``values``: "*" for all, else consecutive runs as ranges."""
    if values == frozenset(range(lowest, highest + 1)):
        return "*"

    def label(value: int) -> str:
        return names[value - lowest] if names else str(value)

    return ranges_text(values, label)


def ranges_text(values: Iterable[int], label: Callable[[int], str] = str) -> str:
    """Sorted values with consecutive runs as ranges: ``{0, 1, 2, 5}`` as ``"0-2,5"``."""
    runs: list[str] = []
    ordered = sorted(values)
    start = prev = ordered[0]
    for value in [*ordered[1:], None]:
        if value is not None and value == prev + 1:
            prev = value
            continue
        runs.append(label(start) if start == prev else f"{label(start)}-{label(prev)}")
        if value is not None:
            start = prev = value
    return ",".join(runs)


_CRON_FIELDS: tuple[tuple[str, int, int, tuple[str, ...]], ...] = (
    # name, lowest, highest, names for the values from lowest up
    ("minute", 0, 59, ()),
    ("hour", 0, 23, ()),
    ("day of month", 1, 31, ()),
    ("month", 1, 12, MONTH_NAMES),
    ("day of week", 0, 7, ("sun", *WEEKDAY_NAMES)),  # cron: 0 and 7 are Sunday
)


def _parse_cron(words: list[str]) -> ScheduleSpec:
    expression = " ".join(words)
    values = [
        _parse_cron_field(word, *field, expression)
        for word, field in zip(words, _CRON_FIELDS, strict=True)
    ]
    minutes, hours, days, months, cron_weekdays = values
    if words[2] != "*" and words[4] != "*":
        raise _schedule_error(
            f"cron {quoted(expression)} restricts both day of month and day of week; "
            "restrict only one of them"
        )
    # cron 0/7 = Sunday, 1 = Monday  ->  Python/APScheduler 0 = Monday, 6 = Sunday
    weekdays = frozenset((value - 1) % 7 for value in cron_weekdays)
    return _build(
        text=expression,
        weekdays=weekdays,
        minutes=minutes,
        hours=hours,
        days=days,
        months=months,
    )


def _parse_cron_field(
    word: str, name: str, lowest: int, highest: int, names: tuple[str, ...], expression: str
) -> frozenset[int]:
    def bad(problem: str) -> ScheduleError:
        return _schedule_error(f"cron {quoted(expression)}: {name} {quoted(word)} {problem}")

    def number(token: str, *, ends_range: bool = False) -> int:
        if token.isdigit():
            if len(token) > _MAX_DIGITS:
                raise bad(f"has a number outside {lowest}-{highest}")
            value = int(token)
        elif token == "sun" and ends_range and name == "day of week":
            value = 7  # so that "sat-sun" reads as a range
        elif token in names:
            value = lowest + names.index(token)
        else:
            raise bad(f"has {quoted(token)}, which is not a number or a name")
        if not lowest <= value <= highest:
            raise bad(f"has {value}, outside {lowest}-{highest}")
        return value

    chosen: set[int] = set()
    for item in word.split(","):
        match = _CRON_ITEM.fullmatch(item)
        if match is None:
            raise bad(
                "is not a cron field (use *, a number, a range a-b, a list a,b or a step */n)"
            )
        if match["step"] and len(match["step"]) > _MAX_DIGITS:
            raise bad(f"has a step larger than {highest}")
        step = int(match["step"]) if match["step"] else 1
        if step == 0:
            raise bad("has a step of 0")
        if match["range"] == "*":
            first, last = lowest, highest
        else:
            first_word, _, last_word = match["range"].partition("-")
            first = number(first_word)
            last = (
                number(last_word, ends_range=True)
                if last_word
                else (highest if match["step"] else first)
            )
        if first > last:
            raise bad(f"has the range {first}-{last}, which runs backwards")
        chosen.update(range(first, last + 1, step))
    return frozenset(chosen)


def _build(
    *,
    text: str,
    weekdays: frozenset[int],
    minutes: frozenset[int],
    hours: frozenset[int],
    days: frozenset[int],
    months: frozenset[int],
) -> ScheduleSpec:
    # The CronTrigger fields are derived from the parsed values, so that APScheduler
    # reads exactly what this module computes (it would ignore "/2" in "jan-jun/2").
    spec = ScheduleSpec(
        text=text,
        minute=_compact(minutes, 0, 59),
        hour=_compact(hours, 0, 23),
        day=_compact(days, 1, 31),
        month=_compact(months, 1, 12),
        day_of_week=_compact(weekdays, 0, 6, WEEKDAY_NAMES),
        minutes=minutes,
        hours=hours,
        days=days,
        months=months,
        weekdays=weekdays,
    )
    try:
        CronTrigger(**spec.cron_fields(), timezone=_UTC_ZONE)
    except ValueError as error:
        raise _schedule_error(f"schedule {quoted(text)} is not valid: {error}") from None
    if next_slot(spec, _UTC_ZONE, _REFERENCE) is None:
        raise _schedule_error(f"schedule {quoted(text)} never fires (no such date)")
    return spec


# ---------------------------------------------------------------- slot arithmetic


def _require_aware(value: datetime, name: str) -> None:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be timezone-aware, got {value!r}")


@lru_cache(maxsize=1024)
def _wall_times(spec: ScheduleSpec) -> tuple[time, ...]:
    """The local times of a day's slots, earliest first (sorted once per schedule, not
    for every day that start-up's slot arithmetic walks, for each of 10,000 schedules)."""
    return tuple(
        time(hour, minute) for hour in sorted(spec.hours) for minute in sorted(spec.minutes)
    )


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
    times = _wall_times(spec)
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
    times = _wall_times(spec)
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
    _require_aware(after, "after")
    if tz.key is None:  # a zone read from a file has no name to remember it by
        return next(slots_after(spec, tz, after), None)
    key = (spec.text, tz.key)
    known = _FOLLOWING.get(key)
    if known is not None and known[0] <= after < known[1]:
        return known[1]
    following = next(slots_after(spec, tz, after), None)
    if following is not None:
        if len(_FOLLOWING) >= _FOLLOWING_LIMIT:
            _FOLLOWING.clear()
        _FOLLOWING[key] = (after, following)
    return following


@lru_cache(maxsize=256)  # start-up asks it for every channel, with the same instant
def previous_slot(spec: ScheduleSpec, tz: ZoneInfo, at_or_before: datetime) -> datetime | None:
    """The latest slot at or before ``at_or_before`` (UTC-aware), or None."""
    return next(slots_until(spec, tz, at_or_before), None)


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
    _require_aware(now, "now")
    if last_round_at is not None:
        following = next_slot(spec, tz, last_round_at)
        if following is None or following > now:
            return MissedSlot(post=None)  # no slot since the last round: the usual restart
    latest = previous_slot(spec, tz, now)
    if latest is None or (last_round_at is not None and last_round_at >= latest):
        return MissedSlot(post=None)
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
