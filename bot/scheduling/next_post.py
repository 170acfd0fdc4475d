"""When a channel's next scheduled question is posted."""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime
from zoneinfo import ZoneInfo

from bot.kernel.models import ChannelSettings
from bot.scheduling.schedule_spec import ScheduleError, parse_schedule
from bot.scheduling.skipped_days import next_posting_slot


def next_post(
    channel: ChannelSettings, after: datetime, skipped: Collection[date] = ()
) -> datetime | None:
    """The channel's first scheduled slot after ``after`` not on a ``skipped`` day; None
    when none comes (no schedule, paused, disabled, or a schedule that no longer parses)."""
    if not channel.is_scheduled() or channel.schedule is None:
        return None
    try:
        spec = parse_schedule(channel.schedule)
    except ScheduleError:
        return None
    return next_posting_slot(spec, ZoneInfo(channel.timezone), after, frozenset(skipped))
