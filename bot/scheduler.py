"""QuizScheduler: one APScheduler job per distinct (schedule, timezone), fired at its slots.

Channels with the same schedule and timezone share one job, which hands the
slot to each of them in turn: ten thousand channels on a few schedules are a
few jobs, so start-up and every wake-up of APScheduler cost the same as for ten.

The channels table is the source of truth: the runtime calls :meth:`set_channel`
for every channel at start (the job store is in memory) and again whenever an
admin changes a schedule, pauses or resumes, so a change takes effect at once.

Slots missed while the process was down are not this class's business: the
caller decides them with ``missed_slot`` before :meth:`start`. While the process
is up APScheduler never drops a slot on its own (``misfire_grace_time=None``);
a job that runs later than the channel's grace window logs and skips instead.

Fire times come from :func:`bot.schedule_spec.next_slot` through
:class:`SlotTrigger`, so ``next_run`` and the slots the engine records agree on
DST days (APScheduler 3.11's own CronTrigger fires a repeated local time twice).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast
from zoneinfo import ZoneInfo

from apscheduler.job import Job
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.base import BaseTrigger

from bot.models import ChannelSettings
from bot.ports import Clock
from bot.schedule_spec import (
    ScheduleError,
    ScheduleSpec,
    next_slot,
    parse_schedule,
    parse_timezone,
    previous_slot,
)

log = logging.getLogger(__name__)

# On a pooled store (replicas sharing PostgreSQL), the channels whose rounds one fire
# records at a time. Each replica walks all of a slot's channels, recording a round or
# finding it taken (a few database round trips either way); one after the other, three
# replicas spent so long on it that they finished a 600-channel fan-out later than one.
FIRE_CONCURRENCY = 4

SlotHandler = Callable[[int, datetime], Awaitable[None]]


GroupKey = tuple[str, str]  # (normalized schedule, timezone key)


def job_id(key: GroupKey, kind: str = "channel") -> str:
    return f"{kind}:{key[0]}|{key[1]}"


class SlotTrigger(BaseTrigger):  # type: ignore[misc]  # apscheduler ships no type hints
    """An APScheduler trigger firing at the slots of a schedule in a timezone."""

    __slots__ = ("spec", "tz")

    def __init__(self, spec: ScheduleSpec, tz: ZoneInfo) -> None:
        self.spec = spec
        self.tz = tz

    def get_next_fire_time(
        self, previous_fire_time: datetime | None, now: datetime
    ) -> datetime | None:
        return next_slot(self.spec, self.tz, previous_fire_time or now)

    def __str__(self) -> str:
        return f"slots[{self.spec.text} {self.tz.key}]"

    def __repr__(self) -> str:
        return f"<SlotTrigger ({self.spec.text!r}, timezone={self.tz.key!r})>"


@dataclass(frozen=True, slots=True)
class ChannelPlan:
    """What a channel's job needs when it fires."""

    channel_id: int
    spec: ScheduleSpec
    tz: ZoneInfo
    grace: timedelta

    @property
    def group(self) -> GroupKey:
        return (self.spec.text, self.tz.key)


def plan_for(channel: ChannelSettings) -> ChannelPlan | None:
    """The channel's plan, or None when it should not fire (paused, disabled, no schedule).

    Raises ScheduleError for a schedule or timezone that does not parse.
    """
    if not channel.is_scheduled() or channel.schedule is None:
        return None
    return channel_plan(channel, channel.schedule)


def channel_plan(channel: ChannelSettings, schedule: str) -> ChannelPlan:
    """``schedule`` in the channel's timezone, with the channel's grace window."""
    return ChannelPlan(
        channel_id=channel.id,
        spec=parse_schedule(schedule),
        tz=parse_timezone(channel.timezone),
        grace=timedelta(hours=channel.grace_hours),
    )


class QuizScheduler:
    """Calls ``on_slot(channel_id, slot)`` at each channel's slots (``slot`` in UTC)."""

    def __init__(
        self,
        on_slot: SlotHandler,
        clock: Clock,
        *,
        kind: str = "channel",
        spread: bool = False,
        start_at: Callable[[int], int] = random.randrange,
    ) -> None:
        """``kind`` names the jobs ("channel" for rounds, "recap" for weekly recaps).
        With ``spread`` (replicas sharing a pooled store) each fire walks the channels
        from ``start_at(count)`` on, round the list, so replicas start in different
        places, and hands ``FIRE_CONCURRENCY`` channels to ``on_slot`` at a time."""
        self._kind = kind
        self._spread = spread
        self._start_at = start_at
        self._on_slot = on_slot
        self._clock = clock
        self._plans: dict[int, ChannelPlan] = {}
        self._groups: dict[GroupKey, dict[int, ChannelPlan]] = {}  # channels by shared job
        self._last_slot: dict[int, datetime] = {}  # the last slot handed to on_slot, per channel
        self._in_flight: set[asyncio.Task[Any]] = set()
        self._scheduler = AsyncIOScheduler(timezone=UTC)
        self._started = False

    @property
    def running(self) -> bool:
        return self._started

    def start(self) -> None:
        """Start firing; call from a running event loop. Jobs set before start are added now."""
        if self._started:
            return
        self._scheduler.start()
        self._started = True
        for key, members in list(self._groups.items()):
            self._add_job(key, next(iter(members.values())))

    async def shutdown(self) -> None:
        """Stop firing, let slots being handled finish, and stop APScheduler."""
        if not self._started:
            return
        self._started = False
        self._scheduler.pause()
        others = self._in_flight - {asyncio.current_task()}
        if others:
            await asyncio.wait(others)
        self._scheduler.shutdown(wait=False)
        # AsyncIOScheduler.shutdown only queues the real shutdown on the loop (call_soon);
        # a callback queued after it runs after it.
        done = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_soon(done.set_result, None)
        await done
        if self._scheduler.running:
            raise RuntimeError("APScheduler is still running after shutdown")

    def set_channel(self, channel: ChannelSettings) -> None:
        """Add, replace or (paused, disabled, unscheduled, invalid) remove the channel's job."""
        try:
            plan = plan_for(channel)
        except ScheduleError as problem:
            log.error("channel %d: not scheduled, its schedule is invalid: %s", channel.id, problem)
            plan = None
        self.set_plan(channel.id, plan)

    def set_plan(self, channel_id: int, plan: ChannelPlan | None) -> None:
        """Add, replace or (None) remove the channel's job."""
        if plan is None:
            self.remove_channel(channel_id)
            return
        previous = self._plans.get(channel_id)
        if previous is not None and previous.group != plan.group:
            self._leave_group(previous)
        self._plans[channel_id] = plan
        members = self._groups.setdefault(plan.group, {})
        members[channel_id] = plan
        if self._started and len(members) == 1:
            self._add_job(plan.group, plan)

    def remove_channel(self, channel_id: int) -> None:
        plan = self._plans.pop(channel_id, None)
        if plan is not None:
            self._leave_group(plan)

    def _leave_group(self, plan: ChannelPlan) -> None:
        members = self._groups.get(plan.group, {})
        members.pop(plan.channel_id, None)
        if members:
            return
        self._groups.pop(plan.group, None)
        if self._started and self._scheduler.get_job(job_id(plan.group, self._kind)) is not None:
            self._scheduler.remove_job(job_id(plan.group, self._kind))

    def job_for(self, channel_id: int) -> Job | None:
        """The APScheduler job that fires the channel's slots (shared with its group)."""
        plan = self._plans.get(channel_id)
        if plan is None or not self._started:
            return None
        return cast(Job | None, self._scheduler.get_job(job_id(plan.group, self._kind)))

    def next_run(self, channel_id: int) -> datetime | None:
        """When the channel's job fires next (UTC), or None when it has no job."""
        plan = self._plans.get(channel_id)
        if plan is None:
            return None
        if self._started:
            job = self.job_for(channel_id)
            run_time: datetime | None = job.next_run_time if job is not None else None
            return run_time.astimezone(UTC) if run_time is not None else None
        return next_slot(plan.spec, plan.tz, self._clock.now())

    def _add_job(self, key: GroupKey, plan: ChannelPlan) -> None:
        first = next_slot(plan.spec, plan.tz, self._clock.now())
        if first is None:
            for channel_id in list(self._groups.get(key, {})):
                log.error("channel %d: schedule %r never fires", channel_id, plan.spec.text)
                self.remove_channel(channel_id)
            return
        self._scheduler.add_job(
            self._fire,
            trigger=SlotTrigger(plan.spec, plan.tz),
            args=(key,),
            id=job_id(key, self._kind),
            name=f"{self._kind} slots {key[0]} {key[1]}",
            replace_existing=True,
            coalesce=True,
            max_instances=1,
            misfire_grace_time=None,  # never drop a slot silently; _post applies the grace
            next_run_time=first,  # from the injected clock, not APScheduler's wall clock
        )

    async def _fire(self, key: GroupKey) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        try:
            # The channels in turn: the first rounds' posts start while later channels'
            # rounds are still being recorded.
            plans = list(self._groups.get(key, {}).values())
            walkers = 1
            if self._spread and plans:
                start = self._start_at(len(plans))
                plans = plans[start:] + plans[:start]
                walkers = FIRE_CONCURRENCY
            turns = iter(plans)

            async def walk() -> None:
                for plan in turns:  # shared: each plan is taken by one walker
                    if self._plans.get(plan.channel_id) is plan:  # not changed meanwhile
                        await self._post(plan)

            await asyncio.gather(*(walk() for _ in range(walkers)))
        finally:
            if task is not None:
                self._in_flight.discard(task)

    async def _post(self, plan: ChannelPlan) -> None:
        now = self._clock.now()
        slot = previous_slot(plan.spec, plan.tz, now)
        if slot is None:
            log.error("channel %d: fired with no slot due at %s", plan.channel_id, now)
            return
        if now - slot > plan.grace:
            log.warning(
                "channel %d: slot %s fired %s late, beyond the grace window; skipped",
                plan.channel_id,
                slot.isoformat(),
                now - slot,
            )
            return
        if self._last_slot.get(plan.channel_id) == slot:
            log.warning("channel %d: slot %s already fired; skipped", plan.channel_id, slot)
            return
        self._last_slot[plan.channel_id] = slot
        try:
            await self._on_slot(plan.channel_id, slot)
        except Exception:
            log.exception("channel %d: handling the slot %s failed", plan.channel_id, slot)
