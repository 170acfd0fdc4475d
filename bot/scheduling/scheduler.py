"""QuizScheduler: fires each distinct (schedule, timezone) at its slots, through one job.

Channels with the same schedule and timezone form a group, whose slot is handed to each
of them in turn. The scheduler keeps every group's next slot in a heap and APScheduler
holds a single job, set to the earliest of them; when it fires, each group whose slot
has come is fired and its following slot queued. Ten thousand channels on as many
schedules (teams pick their own times and timezones) are ten thousand slot computations
at start-up, not ten thousand APScheduler jobs: each of those was validated, stored,
woke the scheduler and logged a line, 2.7 s and 10 MB more to start at 10,000 channels.

The channels table is the source of truth: the runtime calls :meth:`set_channel`
for every channel at start (nothing is persisted here) and again whenever an
admin changes a schedule, pauses or resumes, so a change takes effect at once.

Slots missed while the process was down are not this class's business: the
caller decides them with ``missed_slot`` before :meth:`start`. While the process
is up no slot is dropped on the scheduler's side (``misfire_grace_time=None``); a
group that fires later than a channel's grace window logs and skips for it instead.

Slots come from :func:`bot.scheduling.schedule_spec.next_slot`, so ``next_run`` and the slots
the engine records agree on DST days (APScheduler 3.11's own CronTrigger fires a
repeated local time twice).
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import logging
import random
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.base import BaseTrigger

from bot.kernel.clock import Clock
from bot.kernel.models import ChannelSettings
from bot.scheduling.schedule_spec import ScheduleError
from bot.scheduling.slot_arithmetic import next_slot, previous_slot
from bot.scheduling.slot_plans import GroupKey, SlotPlan, plan_for

log = logging.getLogger(__name__)

# On a pooled store (replicas sharing PostgreSQL), the channels whose rounds one fire
# records at a time. Each replica walks all of a slot's channels, recording a round or
# finding it taken (a few database round trips either way); one after the other, three
# replicas spent so long on it that they finished a 600-channel fan-out later than one.
FIRE_CONCURRENCY = 4

SlotHandler = Callable[[int, datetime], Awaitable[None]]


GroupFire = Callable[[GroupKey], Coroutine[Any, Any, None]]


def job_id(kind: str = "channel") -> str:
    """The id of a scheduler's one APScheduler job."""
    return f"{kind}:slots"


class _EarliestSlot(BaseTrigger):  # type: ignore[misc]  # apscheduler ships no type hints
    """The trigger of a scheduler's one job: its next run after APScheduler's ``now``.

    APScheduler asks right after it started a run and removes the job when the answer is
    None. The groups due at ``now`` are then still queued at their slot (the run fires
    them and queues their following slots later, see ``QuizScheduler._fire_due``), so a
    due group counts at its following slot: with one group, its slot alone left no next
    run, and the job was gone after the first."""

    __slots__ = ("_next_after",)

    def __init__(self, next_after: Callable[[datetime], datetime | None]) -> None:
        self._next_after = next_after

    def get_next_fire_time(
        self, previous_fire_time: datetime | None, now: datetime
    ) -> datetime | None:
        return self._next_after(now)

    def __str__(self) -> str:
        return "earliest group slot"


@dataclass(frozen=True, slots=True)
class GroupJob:
    """What fires a group's slot: ``await job.func(*job.args)`` hands the slot due at the
    clock's time to each of the group's channels, as the scheduler does at the slot."""

    func: GroupFire
    args: tuple[GroupKey]
    next_run_time: datetime


# A group's channels: its one channel's id (nearly every group when teams pick their own
# times: a dict for each of 10,000 groups was 2.2 MB), or the ids, in the order they joined.
Members = int | dict[int, None]


def _joined(members: Members | None, channel_id: int) -> Members:
    """The group's channels with ``channel_id`` added (where it was, if it was one)."""
    if members is None or members == channel_id:
        return channel_id
    if isinstance(members, int):
        return {members: None, channel_id: None}
    members[channel_id] = None
    return members


def _without(members: Members, channel_id: int) -> Members | None:
    """The group's channels without ``channel_id``; None when none is left."""
    if isinstance(members, int):
        return None if members == channel_id else members
    members.pop(channel_id, None)
    return members or None


def _ids_of(members: Members) -> list[int]:
    return [members] if isinstance(members, int) else list(members)


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
        """``kind`` names the job ("channel" for rounds, "recap" for weekly recaps).
        With ``spread`` (replicas sharing a pooled store) each fire walks the channels
        from ``start_at(count)`` on, round the list, so replicas start in different
        places, and hands ``FIRE_CONCURRENCY`` channels to ``on_slot`` at a time."""
        self._kind = kind
        self._spread = spread
        self._start_at = start_at
        self._on_slot = on_slot
        self._clock = clock
        self._plans: dict[int, SlotPlan] = {}
        self._groups: dict[GroupKey, Members] = {}  # channels by group
        self._next: dict[GroupKey, datetime] = {}  # each group's next slot (UTC)
        # (slot, group) for each group's next slot, earliest first; an entry whose slot is
        # no longer its group's next (the group was left or fired) is dropped when met
        self._queue: list[tuple[datetime, GroupKey]] = []
        self._armed: datetime | None = None  # the time the APScheduler job was set to
        self._firing: set[GroupKey] = set()  # groups whose fire is still walking its channels
        self._last_slot: dict[int, datetime] = {}  # the last slot handed to on_slot, per channel
        self._in_flight: set[asyncio.Task[Any]] = set()
        self._scheduler = AsyncIOScheduler(timezone=UTC)
        self._started = False

    @property
    def running(self) -> bool:
        return self._started

    def start(self) -> None:
        """Start firing; call from a running event loop. Channels set before start fire
        from now on."""
        if self._started:
            return
        self._scheduler.start()
        self._started = True
        self._arm()

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
        """Add, replace or (paused, disabled, unscheduled, invalid) remove the channel's slots."""
        self.set_plan(channel.id, self.plan_of(channel))

    def set_channels(self, channels: Iterable[ChannelSettings]) -> None:
        """:meth:`set_channel` for each of ``channels`` (start-up's 10,000), in one pass."""
        self.set_plans((channel.id, self.plan_of(channel)) for channel in channels)

    @staticmethod
    def plan_of(channel: ChannelSettings) -> SlotPlan | None:
        """The channel's plan; None (and a logged error for an invalid schedule) when its
        questions do not fire."""
        try:
            return plan_for(channel)
        except ScheduleError as problem:
            log.error("channel %d: not scheduled, its schedule is invalid: %s", channel.id, problem)
            return None

    def set_plan(self, channel_id: int, plan: SlotPlan | None) -> None:
        """Add, replace or (None) remove the channel's slots."""
        if plan is None:
            self.remove_channel(channel_id)
            return
        previous = self._plans.get(channel_id)
        if previous is not None and previous.group != plan.group:
            self._leave_group(channel_id, previous)
        if self._join(channel_id, plan, self._clock.now()):
            self._arm()

    def set_plans(self, planned: Iterable[tuple[int, SlotPlan | None]]) -> None:
        """:meth:`set_plan` for many channels in one pass: start-up plans 10,000 channels in
        each of four schedulers, nearly all of them new here and joining a group."""
        plans, now = self._plans, self._clock.now()
        for channel_id, plan in planned:
            if plan is None or channel_id in plans:
                self.set_plan(channel_id, plan)  # a removal or a change: the usual way
            else:
                self._join(channel_id, plan, now)
        self._arm()

    def set_group_plans(self, planned: Iterable[tuple[SlotPlan, Sequence[int]]]) -> None:
        """:meth:`set_plans` for channels that share a plan, given together (start-up's
        recaps, pairings and seasons: a plan for each zone's channels on the default)."""
        plans, groups, now = self._plans, self._groups, self._clock.now()
        for plan, ids in planned:
            if len(ids) < 2 or not plans.keys().isdisjoint(ids):
                self.set_plans((channel_id, plan) for channel_id in ids)
                continue
            members = groups.get(plan.group)
            if members is None:
                if not self._open_group(plan, now):
                    log.error("channels %s: schedule %r never fires", ids, plan.spec.text)
                    continue
                members = {}
            elif isinstance(members, int):
                members = {members: None}
            members.update(dict.fromkeys(ids))  # none planned yet: they join, in order
            groups[plan.group] = members
            plans.update(dict.fromkeys(ids, plan))
        self._arm()

    def _join(self, channel_id: int, plan: SlotPlan, now: datetime) -> bool:
        """The channel into its plan's group (its first, from its first slot after ``now``);
        True when it opened the group, whose slot the caller then arms."""
        group = plan.group
        members = self._groups.get(group)
        if members is None and not self._open_group(plan, now):
            self._plans.pop(channel_id, None)
            log.error("channel %d: schedule %r never fires", channel_id, plan.spec.text)
            return False
        self._plans[channel_id] = plan
        self._groups[group] = _joined(members, channel_id)
        return members is None

    def _open_group(self, plan: SlotPlan, now: datetime) -> bool:
        """Queue a new group's first slot after ``now``; False when its schedule never fires."""
        first = next_slot(plan.spec, plan.tz, now)
        if first is None:
            return False
        self._next[plan.group] = first
        heapq.heappush(self._queue, (first, plan.group))
        return True

    def remove_channel(self, channel_id: int) -> None:
        plan = self._plans.pop(channel_id, None)
        if plan is not None:
            self._leave_group(channel_id, plan)

    def _leave_group(self, channel_id: int, plan: SlotPlan) -> None:
        members = self._groups.get(plan.group)
        left = None if members is None else _without(members, channel_id)
        if left is not None:
            self._groups[plan.group] = left
            return
        self._groups.pop(plan.group, None)
        self._next.pop(plan.group, None)  # its queue entry is dropped when met
        self._arm()

    def job_for(self, channel_id: int) -> GroupJob | None:
        """What fires the channel's slots (shared with its group); None before start."""
        plan = self._plans.get(channel_id)
        slot = self._next.get(plan.group) if plan is not None else None
        if plan is None or slot is None or not self._started:
            return None
        return GroupJob(self._fire, (plan.group,), slot)

    def next_run(self, channel_id: int) -> datetime | None:
        """When the channel's slots fire next (UTC), or None when they do not."""
        plan = self._plans.get(channel_id)
        return self._next.get(plan.group) if plan is not None else None

    def _earliest(self) -> datetime | None:
        """The earliest group's next slot; drops the queue's stale entries on the way."""
        while self._queue:
            slot, key = self._queue[0]
            if self._next.get(key) == slot:
                return slot
            heapq.heappop(self._queue)
        return None

    def _arm(self) -> None:
        """Set the APScheduler job to the earliest group slot, adding it when APScheduler
        has none (nothing before start): the groups' slots are kept here, and whatever
        APScheduler decided about the job, the next of them is armed."""
        if not self._started:
            return
        earliest = self._earliest()
        job = self._scheduler.get_job(job_id(self._kind))
        self._armed = earliest
        if job is None:
            self._scheduler.add_job(
                self._fire_due,
                trigger=_EarliestSlot(self._next_run_after),
                id=job_id(self._kind),
                name=f"{self._kind} slots",
                replace_existing=True,
                coalesce=True,
                max_instances=1,
                misfire_grace_time=None,  # never drop a slot silently; _post applies the grace
                next_run_time=earliest,  # None: no group yet, the job waits paused
            )
        elif job.next_run_time != earliest:
            self._scheduler.modify_job(job.id, next_run_time=earliest)

    def _next_run_after(self, now: datetime) -> datetime | None:
        """The job's next run after ``now``: the earliest group slot after it, a group due
        by then counted at its following slot (which ``_fire_due`` queues when it runs)."""
        runs = (
            slot if slot > now else self._following(key, now) for key, slot in self._next.items()
        )
        return min((run for run in runs if run is not None), default=None)

    def _following(self, key: GroupKey, after: datetime) -> datetime | None:
        """The group's first slot after ``after``."""
        plan = self._plans[_ids_of(self._groups[key])[0]]
        return next_slot(plan.spec, plan.tz, after)

    async def _fire_due(self) -> None:
        """The APScheduler job: fire each group whose slot has come and queue its next.

        APScheduler fires by the wall clock at the time the job was set to; a group is due
        when that time or the injected clock reached its slot."""
        now = self._clock.now()
        due_by = now if self._armed is None else max(now, self._armed)
        due: list[GroupKey] = []
        while self._queue and self._queue[0][0] <= due_by:
            slot, key = heapq.heappop(self._queue)
            if self._next.get(key) != slot:
                continue  # stale: the group was left or already fired
            due.append(key)
            following = self._following(key, due_by)  # once, however late
            if following is None:
                del self._next[key]
            else:
                self._next[key] = following
                heapq.heappush(self._queue, (following, key))
        self._arm()
        for key in due:
            if key in self._firing:
                log.warning(
                    "%s slots %s %s: the previous slot is still being handed out; skipped",
                    self._kind,
                    *key,
                )
                continue
            self._firing.add(key)
            task = asyncio.create_task(self._fire(key), name=f"{self._kind}-slot")
            self._in_flight.add(task)
            task.add_done_callback(functools.partial(self._fired, key))

    def _fired(self, key: GroupKey, task: asyncio.Task[None]) -> None:
        self._firing.discard(key)
        self._in_flight.discard(task)

    async def _fire(self, key: GroupKey) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        try:
            # The channels in turn: the first rounds' posts start while later channels'
            # rounds are still being recorded.
            members = self._groups.get(key)
            plans = [] if members is None else [(c, self._plans[c]) for c in _ids_of(members)]
            walkers = 1
            if self._spread and plans:
                start = self._start_at(len(plans))
                plans = plans[start:] + plans[:start]
                walkers = FIRE_CONCURRENCY
            turns = iter(plans)

            async def walk() -> None:
                for channel_id, plan in turns:  # shared: each is taken by one walker
                    if self._plans.get(channel_id) is plan:  # not changed meanwhile
                        await self._post(channel_id, plan)

            await asyncio.gather(*(walk() for _ in range(walkers)))
        finally:
            if task is not None:
                self._in_flight.discard(task)

    async def _post(self, channel_id: int, plan: SlotPlan) -> None:
        now = self._clock.now()
        slot = previous_slot(plan.spec, plan.tz, now)
        if slot is None:
            log.error("channel %d: fired with no slot due at %s", channel_id, now)
            return
        if now - slot > plan.grace:
            log.warning(
                "channel %d: slot %s fired %s late, beyond the grace window; skipped",
                channel_id,
                slot.isoformat(),
                now - slot,
            )
            return
        if self._last_slot.get(channel_id) == slot:
            log.warning("channel %d: slot %s already fired; skipped", channel_id, slot)
            return
        self._last_slot[channel_id] = slot
        try:
            await self._on_slot(channel_id, slot)
        except Exception:
            log.exception("channel %d: handling the slot %s failed", channel_id, slot)
