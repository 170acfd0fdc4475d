"""A slot plan: when something fires (a channel's questions, recap or pairing, a member's
reminder): a schedule in a timezone, and how late a slot may still be handled. Plans are
shared: everything on the same schedule, zone and grace window has the same plan object,
and the channel (or member) it fires for is kept beside it."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import timedelta
from zoneinfo import ZoneInfo

from bot.kernel.models import ChannelSettings
from bot.scheduling.schedule_spec import ScheduleSpec, parse_schedule, parse_timezone

GroupKey = tuple[str, str]  # (normalized schedule, timezone key)


@dataclass(frozen=True, slots=True)
class SlotPlan:
    """When slots fire: a schedule in a timezone, and how late a slot may still be handled.

    One object for everything with the same schedule, zone and grace window (see
    :func:`slot_plan`): the channel (or member) it is for is kept beside it, so the recaps'
    and pairings' plans of 10,000 channels are a few hundred objects, not 20,000."""

    spec: ScheduleSpec
    tz: ZoneInfo
    grace: timedelta
    group: GroupKey = field(init=False)  # (normalized schedule, timezone key)

    def __post_init__(self) -> None:
        object.__setattr__(self, "group", (self.spec.text, self.tz.key))


# What fires, and for whom: the id a slot is handed with (a channel's, or a member's for
# reminders) beside its plan.
Planned = tuple[int, SlotPlan]


def plan_for(channel: ChannelSettings) -> SlotPlan | None:
    """The channel's plan, or None when it should not fire (paused, disabled, no schedule).

    Raises ScheduleError for a schedule or timezone that does not parse.
    """
    if not channel.is_scheduled() or channel.schedule is None:
        return None
    return channel_plan(channel, channel.schedule)


def channel_plan(channel: ChannelSettings, schedule: str) -> SlotPlan:
    """``schedule`` in the channel's timezone, with the channel's grace window."""
    return slot_plan(schedule, channel.timezone, channel.grace_hours)


# The plans made so far, by what they are made of: start-up plans each of 10,000 channels
# three times (questions, recap, pairing), nearly all recaps and pairings alike, and the
# questions' twice (catch-up, then the scheduler). Bounded above the channels a bot is measured
# at (bench/startup.py): below them the scheduler's pass finds none of the catch-up's plans
# and parses every schedule again. The scheduler holds the plans in use anyway; the cache
# adds its entries only.
@functools.lru_cache(maxsize=32_768)
def slot_plan(schedule: str, timezone: str, grace_hours: float) -> SlotPlan:
    """The plan of ``schedule`` in ``timezone`` with a grace window of ``grace_hours``, the
    same object for the same three while they are in use. Raises ScheduleError for a
    schedule or timezone that does not parse."""
    return SlotPlan(parse_schedule(schedule), parse_timezone(timezone), grace_window(grace_hours))


@functools.lru_cache(maxsize=64)
def grace_window(hours: float) -> timedelta:
    """A grace window of ``hours``, one object for every plan with it (three plans for each
    of 10,000 channels at start-up, nearly all with the default)."""
    return timedelta(hours=hours)
