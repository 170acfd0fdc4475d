"""Schedules as admins type them (their slots: :mod:`bot.scheduling.slot_arithmetic`).

``/quiz schedule SPEC [TZ]`` accepts ``weekdays 09:30``, ``daily 10:00``,
``mon,wed,fri 09:00`` (names or ranges such as ``mon-fri``) or a 5-field cron
expression such as ``0 9 * * 1-5`` (cron numbering: 0 and 7 are Sunday).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from functools import cache, lru_cache
from zoneinfo import ZoneInfo, available_timezones

from bot.kernel.errors import QuizError
from bot.kernel.quoting import quoted
from bot.scheduling.slot_arithmetic import next_slot

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
    # the local times of a day's slots, earliest first: worked out once, not for each day
    # start-up's slot arithmetic looks at for each of 10,000 schedules
    wall_times: tuple[time, ...] = field(init=False, repr=False, compare=False)
    utc_wall_times: tuple[time, ...] = field(init=False, repr=False, compare=False)  # as UTC

    def __post_init__(self) -> None:
        times = tuple(time(h, m) for h in sorted(self.hours) for m in sorted(self.minutes))
        object.__setattr__(self, "wall_times", times)
        object.__setattr__(self, "utc_wall_times", tuple(t.replace(tzinfo=UTC) for t in times))

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


# ---------------------------------------------------------------- parsing


@lru_cache(maxsize=1024)
def parse_schedule(text: str) -> ScheduleSpec:
    """Parse a schedule as typed after ``/quiz schedule`` (without the timezone).

    Cached: thousands of channels share a handful of schedules, and parsing one costs
    about 40 us. The spec is immutable, so channels with the same schedule share one.
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
    # The CronTrigger fields are derived from the parsed values, so that they say exactly
    # what this module computes (APScheduler would ignore "/2" in "jan-jun/2"). Nothing
    # fires by them (the scheduler's slots come from slot_arithmetic), so no CronTrigger is
    # built from them here: that was half of parsing each of 10,000 channels' schedules.
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
    if next_slot(spec, _UTC_ZONE, _REFERENCE) is None:
        raise _schedule_error(f"schedule {quoted(text)} never fires (no such date)")
    return spec


# ---------------------------------------------------------------- slot arithmetic
