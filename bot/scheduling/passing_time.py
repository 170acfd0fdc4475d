"""Letting time pass on a clock that can be set, and doing in order what falls due meanwhile.

A console script runs with no scheduler and no outbox worker of its own (its transcript
must not depend on timing), so nothing it sets up fires by itself: no scheduled question,
reveal-after, last call, reminder, recap, pairing or practice timer. ``:wait 2h`` lets two
hours pass instead: :meth:`PassingTime.wait` moves the clock from one due moment to the
next (a slot of a schedule, a reminder's, a recap's or a pairing's, or an outbox action
coming due), hands each slot to its handler as the scheduler would, performs the outbox
work due, and ends at the end of the wait. It reads the plans again at each moment, so a
schedule changed by what fired (or paused) is followed.

The slots are those of :func:`bot.scheduling.schedule_spec.next_slot`, as the scheduler's;
APScheduler is not involved, since it fires by the wall clock.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol, runtime_checkable

from bot.kernel.clock import Clock
from bot.kernel.models import ChannelSettings
from bot.scheduling.schedule_spec import ScheduleError
from bot.scheduling.scheduler import SlotHandler
from bot.scheduling.slot_arithmetic import next_slot
from bot.scheduling.slot_plans import Planned, SlotPlan, plan_for

# What is called at each moment something falls due, before it is done (the console
# prints the time there).
AtEachMoment = Callable[[datetime], None]


@runtime_checkable
class SettableClock(Clock, Protocol):
    """A clock that can be moved to a moment (a test's, a console script's)."""

    def set(self, moment: datetime) -> None:
        """From now on ``now()`` is ``moment`` (and, for a running clock, runs on from it)."""
        ...


@dataclass(frozen=True, slots=True)
class Timer:
    """One kind of scheduled work: its plans as they are now, each beside the id
    ``on_slot`` is handed (a channel's, or a member's for reminders)."""

    plans: Callable[[], Awaitable[Iterable[Planned]]]
    on_slot: SlotHandler


class PassingTime:
    """Moves ``clock`` on and does what falls due meanwhile, in order."""

    def __init__(
        self,
        clock: SettableClock,
        timers: Sequence[Timer],
        next_action_due: Callable[[datetime], Awaitable[datetime | None]],
        settle: Callable[[], Awaitable[None]],
    ) -> None:
        """``next_action_due(after)``: when the next outbox action falls due after a
        moment; ``settle``: perform the outbox work due now."""
        self._clock = clock
        self._timers = timers
        self._next_action_due = next_action_due
        self._settle = settle

    async def wait(self, duration: timedelta, at_each: AtEachMoment | None = None) -> datetime:
        """Let ``duration`` pass; returns the clock's time at its end."""
        moment = self._clock.now()
        end = moment + duration
        while True:
            slots: list[tuple[datetime, Timer, int]] = []
            for timer in self._timers:
                for plan_id, plan in await timer.plans():
                    slot = next_slot(plan.spec, plan.tz, moment)
                    if slot is not None and slot <= end:
                        slots.append((slot, timer, plan_id))
            action = await self._next_action_due(moment)
            due = [slot for slot, _, _ in slots]
            if action is not None and action <= end:
                due.append(action)
            step = max(min(due, default=end), moment)  # never back
            self._clock.set(step)
            if due and at_each is not None:
                at_each(step)
            for slot, timer, plan_id in sorted(slots, key=lambda s: s[0]):
                if slot == step:
                    await timer.on_slot(plan_id, slot)
            await self._settle()
            if step >= end:
                return self._clock.now()
            moment = step


def channel_timer(
    channels: Callable[[], Awaitable[Iterable[ChannelSettings]]],
    plan_of: Callable[[ChannelSettings], SlotPlan | None],
    on_slot: SlotHandler,
) -> Timer:
    """A timer over the channels as they are now, each planned by ``plan_of`` (None: it
    does not fire), e.g. a channel's questions, recap or pairing."""

    async def plans() -> list[Planned]:
        return [
            (channel.id, plan)
            for channel in await channels()
            if (plan := plan_of(channel)) is not None
        ]

    return Timer(plans, on_slot)


def question_plan(channel: ChannelSettings) -> SlotPlan | None:
    """The channel's plan of questions, as the scheduler takes it (a schedule that does not
    parse fires nothing; the scheduler logs it)."""
    try:
        return plan_for(channel)
    except ScheduleError:
        return None
