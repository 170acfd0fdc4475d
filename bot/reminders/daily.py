"""DailyReminders: one DM a day, at a member's local time, when they have reviews due.

``/quiz remind HH:MM [TIMEZONE]`` sets a member's reminder and ``/quiz remind off``
removes it. Each reminder is a daily slot of the same scheduler as rounds and recaps
(:class:`~bot.scheduling.scheduler.QuizScheduler`, slots from
:mod:`bot.scheduling.schedule_spec`, so a local
time skipped or repeated by a daylight-saving change fires once). When a slot fires and
the member's FSRS cards have reviews due by the end of that local day (the day a member
is told a question comes back), the reminder is queued in the outbox under
``remind:<member>:<local date>``: however often that day's slot is handled (a restart,
catch-up after downtime, several replicas), the key is queued once and the outbox sends
it once. A member away (``/quiz away``) on the reminder's local date gets none.
Replicas sharing a store each schedule every reminder: one set through another
replica reaches this one's scheduler through :meth:`DailyReminders.stored`
(``bot.channel_sync``), so it is sent whichever replica is up at its time.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Collection, Iterable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.away.periods import is_away
from bot.away.store import AwayStore
from bot.kernel import cards
from bot.kernel.clock import Clock
from bot.kernel.outbox_queue import OutboxQueue
from bot.kernel.render import Card
from bot.learning.store import LearningStore
from bot.reminders.store import Reminder, ReminderStore
from bot.scheduling.schedule_spec import ScheduleError
from bot.scheduling.scheduler import QuizScheduler
from bot.scheduling.slot_arithmetic import missed_slot, next_slot, previous_slot
from bot.scheduling.slot_plans import Planned, SlotPlan, slot_plan

log = logging.getLogger(__name__)

# A reminder missed while the bot was down is still sent this long after its time.
REMINDER_GRACE_HOURS = 6


def reminder_key(member_id: int, day: date) -> str:
    """The outbox key of a member's reminder of one local day."""
    return f"remind:{member_id}:{day.isoformat()}"


def reminder_plan(reminder: Reminder) -> SlotPlan:
    """The reminder as a daily slot in its timezone (fired for the member's id)."""
    return slot_plan(f"daily {reminder.local_time}", reminder.timezone, REMINDER_GRACE_HOURS)


def day_end(day: date, zone: ZoneInfo) -> datetime:
    """The end of the local day (UTC): the next day's local midnight."""
    return datetime.combine(day + timedelta(days=1), time(), tzinfo=zone).astimezone(UTC)


def reminder_card(due: int) -> Card:
    questions = "question is" if due == 1 else "questions are"
    return cards.info(
        "Time to review",
        f"{due} {questions} due for review today. Start with `/quiz practice`; "
        "`/quiz remind off` stops these reminders.",
    )


class DailyReminders:
    """Members' reminders: kept in the store, fired by a scheduler, sent by the outbox."""

    def __init__(
        self,
        *,
        reminders: ReminderStore,
        learning: LearningStore,
        away: AwayStore,
        clock: Clock,
        outbox: OutboxQueue,
    ) -> None:
        self._reminders = reminders
        self._learning = learning
        self._away = away
        self._clock = clock
        self._outbox = outbox
        self.scheduler: QuizScheduler | None = None  # None: nothing fires by itself (tests)
        self._platforms: Collection[str] = ()

    async def load(self, platforms: Collection[str]) -> list[Reminder]:
        """Schedule every stored reminder of a platform running here; returns them."""
        self._platforms = platforms
        reminders = [r for r in await self._reminders.reminders() if self._here(r)]
        for reminder in reminders:
            self._schedule(reminder)
        return reminders

    async def plans(self) -> list[Planned]:
        """The stored reminders of the platforms running here, each as its daily slot (a
        time that does not parse fires nothing, as it is never scheduled)."""
        plans = []
        for reminder in await self._reminders.reminders():
            if self._here(reminder):
                with contextlib.suppress(ScheduleError):
                    plans.append((reminder.member_id, reminder_plan(reminder)))
        return plans

    async def reminder(self, member_id: int) -> Reminder | None:
        return await self._reminders.reminder(member_id)

    async def set(self, reminder: Reminder) -> datetime | None:
        """Store and schedule the reminder; when it fires next (UTC)."""
        plan = reminder_plan(reminder)  # validated before anything is stored
        await self._reminders.set_reminder(reminder, self._clock.now())
        self._schedule(reminder)
        return self.next_time(plan)

    def stored(self, member_id: int, reminder: Reminder | None) -> None:
        """Another replica set (or, None, turned off) the member's reminder: schedule it
        here too, as stored now."""
        if self.scheduler is None:
            return
        if reminder is None or not self._here(reminder):
            self.scheduler.remove_channel(member_id)
        else:
            self._schedule(reminder)

    async def stop(self, member_id: int) -> bool:
        if self.scheduler is not None:
            self.scheduler.remove_channel(member_id)
        return await self._reminders.clear_reminder(member_id)

    def next_time(self, plan: SlotPlan) -> datetime | None:
        """When the reminder's slot comes next (UTC)."""
        return next_slot(plan.spec, plan.tz, self._clock.now())

    def _here(self, reminder: Reminder) -> bool:
        return reminder.direct.platform in self._platforms

    def _schedule(self, reminder: Reminder) -> None:
        if self.scheduler is None:
            return
        try:
            plan = reminder_plan(reminder)
        except ScheduleError as problem:
            log.error("member %d: reminder not scheduled: %s", reminder.member_id, problem)
            return
        self.scheduler.set_plan(reminder.member_id, plan)

    async def on_slot(self, member_id: int, slot: datetime) -> None:
        """A reminder slot fired: queue the day's reminder if reviews are due."""
        reminder = await self._reminders.reminder(member_id)
        if reminder is None:
            return  # turned off meanwhile
        plan = reminder_plan(reminder)
        if previous_slot(plan.spec, plan.tz, slot) != slot:
            # a slot of a time since changed (through another replica, whose schedule has
            # the new one): that day's reminder comes at the new time
            log.info("member %d: reminder time changed; slot %s not used", member_id, slot)
            return
        await self._remind(reminder, slot.astimezone(plan.tz).date(), plan.tz)

    async def catch_up(self, reminders: Iterable[Reminder]) -> None:
        """After downtime: today's reminder of each member, if its time passed within the
        grace window (queued at most once: the key is the member and the local day)."""
        now = self._clock.now()
        for reminder in reminders:
            try:
                plan = reminder_plan(reminder)
            except ScheduleError:
                continue
            decision = missed_slot(plan.spec, plan.tz, now, plan.grace, None)
            if decision.post is not None:
                await self._remind(reminder, decision.post.astimezone(plan.tz).date(), plan.tz)

    async def _remind(self, reminder: Reminder, day: date, zone: ZoneInfo) -> None:
        """Queue the reminder of the member's local ``day`` when reviews are due during
        it: a question told to come back that day is due at the hour it was graded, after
        an 08:00 reminder, and asked at that instant it waited a day (or, after a restart,
        came at the hour the catch-up found it due)."""
        if is_away(await self._away.until_for_member(reminder.member_id), day):
            log.debug("member %d: away on %s; no reminder", reminder.member_id, day)
            return
        ends = day_end(day, zone)
        member_cards = await self._learning.member_cards(reminder.member_id)
        due = sum(1 for card in member_cards.values() if card.due < ends)
        if due == 0:
            log.debug("member %d: no review due on %s; no reminder", reminder.member_id, day)
            return
        key = reminder_key(reminder.member_id, day)
        await self._outbox.send_direct(reminder.direct, reminder_card(due), key)
