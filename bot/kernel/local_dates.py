"""Local dates members type (``2026-12-24``, ``2026-12-24..2026-12-26``) and the checks
every command taking them applies: ISO form, forwards, not past, at most a year."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.kernel.quoting import quoted

ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
RANGE_MARK = ".."
DAY_FORM = "YYYY-MM-DD"
RANGE_FORM = "YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD"


@dataclass(frozen=True, slots=True)
class DayRange:
    """Local dates from ``first`` through ``last``, both included."""

    first: date
    last: date

    def days(self) -> list[date]:
        count = (self.last - self.first).days + 1
        return [self.first + timedelta(days=n) for n in range(count)]

    def text(self) -> str:
        if self.first == self.last:
            return day_label(self.first)
        return f"{day_label(self.first)} – {day_label(self.last)}"


def day_label(day: date) -> str:
    """A local date as cards show it: "Thu 24 Dec 2026"."""
    return day.strftime("%a %d %b %Y")


def local_today(now: datetime, timezone: str) -> date:
    """The date it is now in ``timezone``."""
    return now.astimezone(ZoneInfo(timezone)).date()


def looks_like_days(word: str) -> bool:
    """A word meant as a date or range (a digit-led YYYY-...), not a schedule or cron field."""
    return bool(re.match(r"\d{4}-", word))


def parse_day(word: str) -> date:
    """One ISO date; raises ValueError saying the right form."""
    if ISO_DAY.fullmatch(word):
        try:
            return date.fromisoformat(word)
        except ValueError:
            pass
    raise ValueError(f"{quoted(word)} is not a date: write it as {DAY_FORM}, e.g. 2026-12-24.")


def parse_day_range(word: str) -> DayRange:
    """``DATE`` or ``DATE..DATE``, forwards and at most a year long; raises ValueError
    saying the right form."""
    first_word, mark, last_word = word.partition(RANGE_MARK)
    if not mark:
        day = parse_day(word)
        return DayRange(day, day)
    if not first_word or not last_word:
        raise ValueError(f"{quoted(word)} is not a range: write it as {RANGE_FORM}.")
    first, last = parse_day(first_word), parse_day(last_word)
    if last < first:
        raise ValueError(
            f"{quoted(word)} runs backwards: write the earlier date first, "
            f"{last.isoformat()}..{first.isoformat()}."
        )
    refuse_too_long(first, last)
    return DayRange(first, last)


def year_after(day: date) -> date:
    """The same date a year later (29 February: 1 March)."""
    try:
        return day.replace(year=day.year + 1)
    except ValueError:
        return date(day.year + 1, 3, 1)


def refuse_too_long(first: date, last: date) -> None:
    """A range is shorter than a year: ``last`` comes before ``first``'s date next year."""
    if first.year < date.max.year and last >= year_after(first):  # no year after 9999
        raise ValueError(
            f"{first.isoformat()}..{last.isoformat()} is longer than a year: "
            "give at most a year at a time."
        )


def refuse_past(day: date, today: date) -> None:
    """A date before today (in the timezone the command reads dates in) is refused."""
    if day < today:
        raise ValueError(
            f"{day.isoformat()} is in the past (today is {today.isoformat()}): "
            "give today or a later date."
        )


def refuse_too_far(day: date, today: date) -> None:
    """A date more than a year after today is refused: the same date next year is the last
    one taken (a far date is most likely a mistyped year)."""
    latest = year_after(today)
    if day > latest:
        raise ValueError(
            f"{day.isoformat()} is more than a year ahead: give a date up to {latest.isoformat()}."
        )
