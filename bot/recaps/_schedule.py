"""When a channel's weekly recap goes out: one day of the week and a local time.

``/quiz recap DAY HH:MM`` sets it (``fri 16:00`` by default) and ``/quiz recap off``
stops it. The slot is computed like a round's (:mod:`bot.scheduling.schedule_spec`), in the
channel's timezone, with the same daylight-saving rule and the channel's grace window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.kernel.models import ChannelSettings
from bot.kernel.quoting import quoted
from bot.scheduling.schedule_spec import WEEKDAY_NAMES, ScheduleError, parse_schedule
from bot.scheduling.slot_plans import SlotPlan, channel_plan

DEFAULT_RECAP_TIME = "16:00"
DEFAULT_RECAP = f"fri {DEFAULT_RECAP_TIME}"
_TIME_OF_DAY = re.compile(r"\d{1,2}:\d{2}")  # its range is checked by parse_schedule


@dataclass(frozen=True, slots=True)
class RecapSetting:
    """A channel's weekly recap: on or off, and when."""

    enabled: bool = True
    schedule: str | None = None  # None: DEFAULT_RECAP

    @property
    def spec_text(self) -> str:
        return self.schedule or DEFAULT_RECAP

    def describe(self) -> str:
        return f"weekly, {self.spec_text}" if self.enabled else "off"


DEFAULT_SETTING = RecapSetting()


def parse_recap_time(day: str, at: str) -> str:
    """The stored form ("fri 16:00") of one weekday and a 24-hour time; raises
    ScheduleError saying what is wrong (the command's form and example are added by the
    grammar)."""
    if _TIME_OF_DAY.fullmatch(day):
        # "/quiz recap 16:00": the time came where the day goes
        example_day = at.lower() if at.lower() in WEEKDAY_NAMES else DEFAULT_RECAP.split()[0]
        raise ScheduleError(
            f"{quoted(day)} is a time, not a day: name the day first, e.g. {example_day} {day}."
        )
    if "," in day or "-" in day:
        raise ScheduleError(f"Name one day, not {quoted(day)}.")
    if not _TIME_OF_DAY.fullmatch(at):
        raise ScheduleError(f"{quoted(at)} is not a time: write it as HH:MM, e.g. 16:00.")
    try:
        parse_schedule(f"{day} 00:00")  # the day alone: its error should not quote the time
    except ScheduleError:
        raise ScheduleError(f"Unknown day {quoted(day)}: name one day, mon..sun, or off.") from None
    try:
        spec = parse_schedule(f"{day} {at}")
    except ScheduleError as problem:
        reason = str(problem).split(". Use:")[0]  # without the /quiz schedule usage
        raise ScheduleError(f"{reason[:1].upper()}{reason[1:]}.") from None
    if len(spec.weekdays) != 1:
        raise ScheduleError(f"Name one day, not {quoted(day)}.")
    return spec.text


def recap_plan(channel: ChannelSettings, setting: RecapSetting) -> SlotPlan | None:
    """The channel's recap plan; None when it gets no recap (off, or the channel is
    disabled). A paused channel keeps its recap: a week with no round sends none."""
    if not setting.enabled or channel.disabled_reason is not None:
        return None
    return channel_plan(channel, setting.spec_text)
