"""When a channel's members are paired: one day of the week and a local time.

``/quiz pair schedule DAY HH:MM`` sets it (``mon 10:00`` by default) and ``/quiz pair
schedule off`` stops it. The slot is computed like a round's or a recap's
(:mod:`bot.scheduling.schedule_spec`), in the channel's timezone, with its grace window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.kernel.models import ChannelSettings
from bot.kernel.quoting import quoted
from bot.scheduling.schedule_spec import WEEKDAY_NAMES, ScheduleError, parse_schedule
from bot.scheduling.slot_plans import SlotPlan, channel_plan

DEFAULT_PAIRING = "mon 10:00"
_TIME_OF_DAY = re.compile(r"\d{1,2}:\d{2}")


@dataclass(frozen=True, slots=True)
class PairSetting:
    """A channel's weekly pairing: on or off, and when."""

    enabled: bool = True
    schedule: str | None = None  # None: DEFAULT_PAIRING

    @property
    def spec_text(self) -> str:
        return self.schedule or DEFAULT_PAIRING

    def describe(self) -> str:
        return f"weekly, {self.spec_text}" if self.enabled else "off"


DEFAULT_SETTING = PairSetting()


@dataclass(frozen=True, slots=True)
class StoredPairing:
    """A channel and its pairing slot, as another replica stored them."""

    channel: ChannelSettings
    setting: PairSetting


def parse_pair_time(day: str, at: str) -> str:
    """The stored form ("mon 10:00") of one weekday and a 24-hour time; raises
    ScheduleError saying what is wrong."""
    if day.lower() not in WEEKDAY_NAMES:
        raise ScheduleError(f"Unknown day {quoted(day)}: name one day, mon..sun, or off.")
    if not _TIME_OF_DAY.fullmatch(at):
        raise ScheduleError(f"{quoted(at)} is not a time: write it as HH:MM, e.g. 10:00.")
    try:
        return parse_schedule(f"{day.lower()} {at}").text
    except ScheduleError as problem:
        reason = str(problem).split(". Use:")[0]
        raise ScheduleError(f"{reason[:1].upper()}{reason[1:]}.") from None


def pairing_plan(channel: ChannelSettings, setting: PairSetting) -> SlotPlan | None:
    """The channel's pairing plan; None when it pairs nobody (off, or disabled)."""
    if not setting.enabled or channel.disabled_reason is not None:
        return None
    return channel_plan(channel, setting.spec_text)


def iso_week(moment: datetime, zone: ZoneInfo) -> str:
    """The ISO week of the moment's local date, e.g. "2026-W49"."""
    year, week, _ = moment.astimezone(zone).isocalendar()
    return f"{year}-W{week:02d}"


def pairing_key(channel_id: int, week: str) -> str:
    """The outbox key of a channel's pairing of one week."""
    return f"pair:{channel_id}:{week}"
