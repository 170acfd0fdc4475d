"""WeeklyRecaps: when each channel's recap is due, recording it once, and building it to send.

A recap slot records the recap and its outbox action in one transaction, keyed
``recap:<channel>:<ISO week>``: a slot handled twice (a restart, catch-up after
downtime and the scheduler both) records it once, and the outbox sends it once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.away.store import AwayStore
from bot.kernel.clock import Clock
from bot.kernel.log_context import about
from bot.kernel.models import ChannelSettings
from bot.kernel.platform import Platform
from bot.kernel.refs import MessageRef, ThreadRef
from bot.kernel.render import Card, Field, Image
from bot.kernel.stores import ChannelStore, MetaStore
from bot.learning.team_memory import TeamMemory
from bot.recaps import chart_png
from bot.recaps._progress_chart import activity_field, me_chart, me_image
from bot.recaps._schedule import DEFAULT_SETTING, RecapSetting, recap_plan
from bot.recaps.chart_data import TREND_WEEKS, RecapChart
from bot.recaps.recap import (
    build_recap,
    recap_card,
    recap_chart,
    recap_key,
    recap_week,
    trend_text,
    week_before,
)
from bot.recaps.store import RecapRecord, RecapStore
from bot.scheduling.schedule_spec import ScheduleError
from bot.scheduling.skipped_days import SkippedDayStore
from bot.scheduling.skips_warned import SkipsWarned
from bot.scheduling.slot_arithmetic import MissedSlot, missed_slot
from bot.scheduling.slot_plans import SlotPlan
from bot.scheduling.zone_groups import Alike, alike, keep_own_settings, planned, zone_groups

log = logging.getLogger(__name__)
SKIPS_WARNED_THROUGH = "recaps:skips_warned_through"  # meta key of SkipsWarned


class WeeklyRecaps:
    """Each channel's weekly recap: when it is due, recording it once, its card."""

    def __init__(
        self,
        *,
        recaps: RecapStore,
        channels: ChannelStore,
        meta: MetaStore,
        memory: TeamMemory,
        skipped_days: SkippedDayStore,
        away: AwayStore,
        clock: Clock,
        wake_outbox: Callable[[], None],
    ) -> None:
        self._recaps = recaps
        self._skipped_days = skipped_days
        self._away = away
        self._channels = channels
        self._skips_warned = SkipsWarned(meta, SKIPS_WARNED_THROUGH)
        self.memory = memory
        self._clock = clock
        self._wake_outbox = wake_outbox
        self._settings: dict[int, RecapSetting] = {}

    async def member_activity(
        self,
        channel: ChannelSettings,
        member_id: int,
        name: str,
        now: datetime,
        target: datetime | None,
    ) -> tuple[Field, Image]:
        """What ``/quiz me`` shows beside a member's figures: their last weeks as text and
        the chart of those weeks and their mastery (recall forecast for ``target``)."""
        chart = await me_chart(self._recaps, self.memory, channel, member_id, name, now, target)
        return activity_field(chart), await me_image(chart)

    async def member_activity_field(
        self,
        channel: ChannelSettings,
        member_id: int,
        name: str,
        now: datetime,
        target: datetime | None,
    ) -> Field:
        """The text of :meth:`member_activity` alone, without drawing its chart."""
        chart = await me_chart(self._recaps, self.memory, channel, member_id, name, now, target)
        return activity_field(chart)

    # settings

    async def load(self, channels: Iterable[ChannelSettings]) -> None:
        stored = await self._recaps.recap_schedules()
        own = {channel_id: RecapSetting(*known) for channel_id, known in stored.items()}
        keep_own_settings(self._settings, own, channels)

    def setting(self, channel_id: int) -> RecapSetting:
        return self._settings.get(channel_id, DEFAULT_SETTING)

    async def change(self, channel_id: int, setting: RecapSetting) -> None:
        await self._recaps.set_recap_schedule(channel_id, setting.enabled, setting.schedule)
        self._settings[channel_id] = setting

    def plan(self, channel: ChannelSettings) -> SlotPlan | None:
        return self._plan_with(channel, self.setting(channel.id))

    def plan_groups(
        self, channels: Sequence[ChannelSettings], platforms: Collection[str]
    ) -> Iterator[tuple[SlotPlan, list[int]]]:
        """Every channel's recap plan at once (start-up), beside the channels it is for."""
        return ((plan, same.ids) for plan, same in self._planned(channels, platforms))

    def _planned(
        self, channels: Sequence[ChannelSettings], platforms: Collection[str] | None
    ) -> Iterator[tuple[SlotPlan, Alike[RecapSetting]]]:
        """One plan for each zone's channels on the default recap, one for each channel
        with a recap of its own (the channels of ``platforms``; None: of every platform)."""
        alikes = alike(zone_groups(channels, platforms), self._settings, DEFAULT_SETTING)
        return planned(alikes, self._plan_with)

    def _plan_with(self, channel: ChannelSettings, setting: RecapSetting) -> SlotPlan | None:
        try:
            return recap_plan(channel, setting)
        except ScheduleError as problem:
            log.error("no recap: %s", problem, extra=about(channel.ref))
            return None

    # slots

    async def on_slot(self, channel_id: int, slot: datetime) -> None:
        """A recap slot fired: record the recap of the week before it, if it had rounds."""
        channel = await self._channels.get_channel_by_id(channel_id)
        if channel is None or self.plan(channel) is None:
            return
        start, end = week_before(slot, ZoneInfo(channel.timezone))
        last_round = await self._recaps.last_round_between(channel.id, start, end)
        await self._record(channel, slot, last_round)

    async def _record(
        self, channel: ChannelSettings, slot: datetime, last_round: int | None
    ) -> None:
        if last_round is None:
            log.info("no round this week: no recap", extra=about(channel.ref))
            return
        record = _recap_record(channel, slot)
        if await self._recaps.record_recap(record, last_round, self._clock.now()):
            log.info("recap of %s recorded", record.week, extra=about(channel.ref))
            self._wake_outbox()

    async def catch_up(
        self, channels: Sequence[ChannelSettings], platforms: Collection[str] | None = None
    ) -> None:
        """After downtime: each channel's last recap slot within its grace window, once
        (the channels of ``platforms``; None: of every platform).

        A fixed number of queries for any number of channels (start-up at 10k channels),
        and one warning for all the recaps missed beyond their grace window."""
        now = self._clock.now()
        warned_through = await self._skips_warned.through()
        due: list[tuple[ChannelSettings, datetime]] = []
        missed: list[tuple[ChannelSettings, datetime, str]] = []
        # What is due depends on the recap's setting and the channel's zone and grace only:
        # worked out once for each zone's channels on the default recap (a few hundred
        # zones at most), not for each of 10,000 channels. A skipped recap at or before the
        # mark was checked by an earlier start: nothing to do, so a restart looks up none
        # of last week's recaps again.
        for plan, same in self._planned(channels, platforms):
            decided = _to_do(_decided(plan, now), warned_through)
            if decided is None:
                continue
            decision, week = decided
            if decision.post is not None:
                due += ((channel, decision.post) for channel in same.channels)
            elif decision.newest_skipped is not None:
                slot = decision.newest_skipped
                missed += ((c, slot, recap_key(c.id, week)) for c in same.channels)
        recorded = await self._recaps.recorded_keys([key for _, _, key in missed])
        unrecorded = [(c, slot) for c, slot, key in missed if key not in recorded]
        # one query for both: the due recaps' weeks, and the missed ones' (a week without a
        # round would have had no recap, so skipping it is nothing to warn about)
        slots = due + unrecorded
        weeks: dict[tuple[datetime, str], tuple[datetime, datetime]] = {}
        for channel, slot in slots:
            if (slot, channel.timezone) not in weeks:
                weeks[slot, channel.timezone] = week_before(slot, ZoneInfo(channel.timezone))
        windows = [(c.id, *weeks[slot, c.timezone]) for c, slot in slots]
        last_rounds = await self._recaps.last_rounds_between(windows)
        due_rounds, missed_rounds = last_rounds[: len(due)], last_rounds[len(due) :]
        skipped = [missed for missed, last in zip(unrecorded, missed_rounds, strict=True) if last]
        self._warn_missed(skipped)
        # each of these is dealt with (recorded, warned about now, or a week with nothing to
        # say): the mark moves past them all, so no restart looks them up again
        await self._skips_warned.warned(slot for _, slot, _ in missed)
        await self._record_late(due, due_rounds)

    async def _record_late(
        self, due: list[tuple[ChannelSettings, datetime]], last_rounds: list[int | None]
    ) -> None:
        """The recaps due at start with a round to report, in one transaction for all
        (each channel's line at debug, one line for all at info)."""
        records: list[tuple[ChannelSettings, RecapRecord, int]] = []
        for (channel, slot), last_round in zip(due, last_rounds, strict=True):
            if last_round is None:
                log.debug("no round this week: no recap", extra=about(channel.ref))
            else:
                records.append((channel, _recap_record(channel, slot), last_round))
        recorded = await self._recaps.record_recaps(
            [(record, last_round) for _, record, last_round in records], self._clock.now()
        )
        for channel, record, _ in records:
            if record.key in recorded:
                log.debug("recap of %s recorded late", record.week, extra=about(channel.ref))
        if recorded or len(records) < len(due):
            log.info(
                "recaps due while down, within the grace window: %d recorded, %d channel(s)"
                " with no round that week",
                len(recorded),
                len(due) - len(records),
            )
        if recorded:
            self._wake_outbox()

    def _warn_missed(self, missed: list[tuple[ChannelSettings, datetime]]) -> None:
        """One warning per grace window for the recaps skipped; the channels at debug."""
        by_grace: dict[float, list[datetime]] = {}
        for channel, slot in missed:
            log.debug("recap due %s skipped", slot.isoformat(), extra=about(channel.ref))
            by_grace.setdefault(channel.grace_hours, []).append(slot)
        for grace_hours, slots in sorted(by_grace.items()):
            log.warning(
                "the recaps of %d channel(s), due %s to %s, are older than the %g h grace"
                " window; skipped",
                len(slots),
                min(slots).isoformat(),
                max(slots).isoformat(),
                grace_hours,
            )

    # sending

    async def card(self, platform: Platform, channel: ChannelSettings, key: str) -> Card | None:
        """The recap's card with its chart, built now from stored data; None when there
        is nothing to send (no such recap, or its week has no round any more)."""
        record = await self._recaps.recap_by_key(key)
        if record is None:
            return None

        async def link(message: str, thread: str | None) -> str | None:
            where = ThreadRef(channel.ref, thread) if thread else None
            return await platform.link(MessageRef(channel.ref, message), where)

        recap = await build_recap(
            self._recaps,
            self.memory,
            channel,
            record.slot,
            link,
            skipped_days=self._skipped_days,
            away=self._away,
        )
        if recap is None:
            return None
        chart = recap_chart(recap)
        png = await asyncio.to_thread(chart_png.recap_png, chart)  # ~0.1 s of CPU
        image = Image(png, f"recap-{record.week}.png", f"{chart.title}: {describe(chart)}")
        return dataclasses.replace(recap_card(recap), image=image)


def _decided(plan: SlotPlan, now: datetime) -> tuple[MissedSlot, str]:
    """The plan's recap missed by ``now``: to post late or skipped, and its ISO week."""
    decision = missed_slot(plan.spec, plan.tz, now, plan.grace, None)
    slot = decision.post or decision.newest_skipped
    return decision, "" if slot is None else recap_week(slot, plan.tz)


def _to_do(
    decided: tuple[MissedSlot, str], warned_through: datetime | None
) -> tuple[MissedSlot, str] | None:
    """The decision, or None when it neither posts a recap nor skips one not yet warned
    about."""
    decision = decided[0]
    if decision.post is not None:
        return decided
    skipped = decision.newest_skipped
    if skipped is None or (warned_through is not None and skipped <= warned_through):
        return None
    return decided


def _recap_record(channel: ChannelSettings, slot: datetime) -> RecapRecord:
    """The channel's recap of the week its ``slot`` ends (the slot's local ISO week)."""
    week = recap_week(slot, ZoneInfo(channel.timezone))
    return RecapRecord(channel.id, week, slot, recap_key(channel.id, week))


def describe(chart: RecapChart) -> str:
    """The chart's alt text."""
    topics = (
        ", ".join(f"{row.topic} {row.percent}% ({row.standing})" for row in chart.mastery)
        or "no grades yet"
    )
    days = ", ".join(f"{day.label} {day.members}" for day in chart.participation) or "none"
    return (
        f"strongest and weakest topics ({topics}); the team's expected recall over the last"
        f" {TREND_WEEKS} weeks ({trend_text(chart.recall_trend)}); members who answered"
        f" each day ({days})"
    )
