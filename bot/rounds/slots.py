"""A channel's question slots in this process: one that fired, and after downtime the one
missed within the channel's grace window (posted late, once; older ones skipped and
logged, never a burst). A slot on one of the channel's skipped days posts neither way."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Collection
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from bot.kernel.clock import Clock
from bot.kernel.log_context import about
from bot.kernel.models import ChannelSettings, Round
from bot.kernel.owed_since import OwedSince
from bot.kernel.stores import ChannelStore, MetaStore
from bot.rounds.engine import NoQuestions
from bot.rounds.store import RoundStore
from bot.scheduling.owed_slots import OwedSlots
from bot.scheduling.schedule_spec import ScheduleError
from bot.scheduling.skipped_days import SkippedDayStore, slot_day
from bot.scheduling.skips_warned import SkipsWarned
from bot.scheduling.slot_arithmetic import MissedSlot, missed_slot
from bot.scheduling.slot_plans import channel_plan

log = logging.getLogger(__name__)
SKIPS_WARNED_THROUGH = "slots:skips_warned_through"  # meta key of SkipsWarned


class StartRound(Protocol):
    """The engine's start of a round (:meth:`bot.rounds.engine.QuizEngine.start_round`)."""

    def __call__(
        self, channel: ChannelSettings, *, scheduled_for: datetime, scheduled: bool
    ) -> Awaitable[Round | None]: ...


class ChannelSlots:
    """Posts the round of a channel's slot, when the slot is due in this process."""

    def __init__(
        self,
        *,
        channels: ChannelStore,
        rounds: RoundStore,
        meta: MetaStore,
        skipped_days: SkippedDayStore,
        start_round: StartRound,
        platforms: Collection[str],
        clock: Clock,
    ) -> None:
        self._channels = channels
        self._rounds = rounds
        self._skips_warned = SkipsWarned(meta, SKIPS_WARNED_THROUGH)
        self._skipped_days = skipped_days
        self._owed = OwedSlots(OwedSince(meta), skipped_days)
        self._start_round = start_round
        self._platforms = platforms  # the platforms running here (the service's, as it grows)
        self._clock = clock

    async def post_slot(self, channel_id: int, slot: datetime) -> None:
        """A scheduled slot fired for a channel."""
        channel = await self._channels.get_channel_by_id(channel_id)
        if channel is None or not self._runs_here(channel):
            return
        day = slot_day(slot, ZoneInfo(channel.timezone))
        if await self._skipped_days.is_skipped(channel.id, day):
            log.info("%s is a skipped day: no question", day, extra=about(channel.ref))
            return
        try:
            await self._start_round(channel, scheduled_for=slot, scheduled=True)
        except NoQuestions as none:
            log.warning("no eligible question: %s", none, extra=about(channel.ref))

    async def catch_up(self, channels: list[ChannelSettings]) -> None:
        """After downtime: each channel's last due slot within its grace window, once."""
        now = self._clock.now()
        latest_slots = await self._rounds.latest_round_times()
        warned_through = await self._skips_warned.through()
        skipped: dict[float, list[MissedSlot]] = {}  # by grace window, for one warning each
        for channel in channels:
            if channel.schedule is None or not self._runs_here(channel):
                continue
            try:
                plan = channel_plan(channel, channel.schedule)
            except ScheduleError as problem:
                log.error("bad schedule: %s", problem, extra=about(channel.ref))
                continue
            last_round_at = latest_slots.get(channel.id)
            decision = missed_slot(plan.spec, plan.tz, now, plan.grace, last_round_at)
            if decision.post is None and not decision.skipped:
                continue  # the usual restart: no slot since the channel's last round
            decision = await self._owed.narrowed(channel.id, plan, now, last_round_at, decision)
            if decision.skipped:
                log.debug(
                    "%d missed slot(s) skipped (%s to %s)",
                    decision.skipped,
                    decision.oldest_skipped,
                    decision.newest_skipped,
                    extra=about(channel.ref),
                )
                newest = decision.newest_skipped
                if warned_through is None or (newest is not None and newest > warned_through):
                    skipped.setdefault(channel.grace_hours, []).append(decision)
            if decision.post is not None:
                log.info("posting the missed %s slot late", decision.post, extra=about(channel.ref))
                await self.post_slot(channel.id, decision.post)
        await self._skips_warned.warned(
            d.newest_skipped for ds in skipped.values() for d in ds if d.newest_skipped
        )
        for grace_hours, decisions in sorted(skipped.items()):
            # one line for all channels (10,000 after a long outage), the channels at debug
            log.warning(
                "%d missed slot(s) of %d channel(s) older than the %g h grace window skipped"
                " (%s to %s)",
                sum(d.skipped for d in decisions),
                len(decisions),
                grace_hours,
                min(d.oldest_skipped for d in decisions if d.oldest_skipped is not None),
                max(d.newest_skipped for d in decisions if d.newest_skipped is not None),
            )

    def _runs_here(self, channel: ChannelSettings) -> bool:
        """Scheduled questions are due: a schedule, not paused or disabled, and its
        platform runs in this process (a channel of a platform not running now gets
        no backlog of rounds that would all be posted when it comes back)."""
        return channel.ref.platform in self._platforms and channel.is_scheduled()
