"""A season: a calendar month or quarter in the channel's timezone.

A season runs from local midnight of its first day to local midnight of the next season's
first day, whatever daylight saving does in between; its name is ``2026-11`` (monthly)
or ``2026-Q4`` (quarterly). The turn of a season is a cron slot of the channel's zone
(:func:`turn_schedule`), so it fires like a question's slot and is caught up after
downtime within the channel's grace window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.kernel.errors import BadArgument
from bot.kernel.models import SeasonLength
from bot.kernel.quoting import quoted

_MONTH = re.compile(r"(\d{4})-(\d{2})")
_QUARTER = re.compile(r"(\d{4})-[qQ]([1-4])")
_TURNS = {
    SeasonLength.MONTHLY: "0 0 1 * *",
    SeasonLength.QUARTERLY: "0 0 1 1,4,7,10 *",
}


@dataclass(frozen=True, slots=True, order=True)
class Season:
    """One season: its first day and the first day of the next (local dates)."""

    first_day: date
    next_first_day: date
    name: str

    def bounds(self, timezone: str) -> tuple[datetime, datetime]:
        """[start, end) in UTC: local midnight of its first day and of the next's."""
        zone = ZoneInfo(timezone)
        return _midnight(self.first_day, zone), _midnight(self.next_first_day, zone)

    @property
    def last_day(self) -> date:
        return self.next_first_day - timedelta(days=1)

    @property
    def days(self) -> int:
        return (self.next_first_day - self.first_day).days

    def dates(self) -> list[date]:
        return [self.first_day + timedelta(days=n) for n in range(self.days)]


def _midnight(day: date, zone: ZoneInfo) -> datetime:
    """The first moment of ``day`` in ``zone``: where daylight saving skips midnight, the
    offset before the gap (zoneinfo's fold 0) makes it the moment the day's clock begins."""
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)


def turn_schedule(length: SeasonLength) -> str | None:
    """The cron schedule of the turns of seasons of ``length``; None when off."""
    return _TURNS.get(length)


def season_of(day: date, length: SeasonLength) -> Season:
    """The season of ``length`` (monthly or quarterly) that ``day`` falls in."""
    if length is SeasonLength.QUARTERLY:
        quarter = (day.month - 1) // 3
        first = date(day.year, quarter * 3 + 1, 1)
        return Season(first, _months_after(first, 3), f"{day.year}-Q{quarter + 1}")
    first = date(day.year, day.month, 1)
    return Season(first, _months_after(first, 1), f"{day.year}-{day.month:02d}")


def previous_season(season: Season, length: SeasonLength) -> Season:
    return season_of(season.first_day - timedelta(days=1), length)


def local_day(moment: datetime, timezone: str) -> date:
    return moment.astimezone(ZoneInfo(timezone)).date()


def ended_at_turn(turn: datetime, timezone: str, length: SeasonLength) -> Season:
    """The season that ended at ``turn`` (a slot at the first moment of the next one)."""
    return season_of(local_day(turn, timezone) - timedelta(days=1), length)


def parse_season(text: str, length: SeasonLength) -> Season:
    """``2026-11`` or ``2026-Q4``, as the channel's seasons are named; raises BadArgument
    saying the right form."""
    typed = text.strip()
    if length is SeasonLength.QUARTERLY:
        quarter = _QUARTER.fullmatch(typed)
        if quarter is None:
            raise BadArgument(
                f"{quoted(typed)} is not a quarter: this channel's seasons are quarters,"
                " written YYYY-Qn, e.g. 2026-Q4."
            )
        return season_of(date(int(quarter[1]), int(quarter[2]) * 3 - 2, 1), length)
    month = _MONTH.fullmatch(typed)
    if month is None or not 1 <= int(month[2]) <= 12:
        raise BadArgument(
            f"{quoted(typed)} is not a month: this channel's seasons are months, written"
            " YYYY-MM, e.g. 2026-11."
        )
    return season_of(date(int(month[1]), int(month[2]), 1), length)


def _months_after(first: date, months: int) -> date:
    index = first.month - 1 + months
    return date(first.year + index // 12, index % 12 + 1, 1)
