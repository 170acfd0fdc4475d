"""The turn of a season: recording the past season's champions once, and its post.

The post goes out **at the turn**: local midnight of the new season's first day in the
channel's timezone, a cron slot like a question's (``0 0 1 * *``, or the first of
January, April, July and October for quarterly seasons), on the scheduler of a process
that stays up, and caught up at start within the channel's grace window (the question's
rule: the latest turn, once, if it is at most that late). The slot records the season,
its champions and its outbox action in one transaction keyed ``season:<channel>:<season>``,
so a turn handled twice (a restart, two replicas) records it once and the outbox sends it
once. A season with no round in the channel has nothing to rank and posts nothing.
"""

from __future__ import annotations

import logging
import operator
from collections.abc import Callable, Collection, Iterator, Sequence
from datetime import datetime

from bot.kernel.clock import Clock
from bot.kernel.log_context import about
from bot.kernel.models import ChannelSettings, SeasonLength
from bot.kernel.render import Card
from bot.kernel.stores import ChannelStore, MetaStore
from bot.scheduling.schedule_spec import ScheduleError
from bot.scheduling.skips_warned import SkipsWarned
from bot.scheduling.slot_arithmetic import missed_slot
from bot.scheduling.slot_plans import SlotPlan, channel_plan
from bot.scheduling.zone_groups import Alike, alike_by, planned, zone_groups
from bot.seasons.cards import season_post_card
from bot.seasons.periods import ended_at_turn, turn_schedule
from bot.seasons.standings import SeasonStandings
from bot.seasons.store import SeasonRecord, SeasonStore, season_key

log = logging.getLogger(__name__)
SKIPS_WARNED_THROUGH = "seasons:skips_warned_through"  # meta key of SkipsWarned


class SeasonTurns:
    """Each channel's turns of season: when due, recorded once, their post's card."""

    def __init__(
        self,
        *,
        seasons: SeasonStore,
        standings: SeasonStandings,
        channels: ChannelStore,
        meta: MetaStore,
        clock: Clock,
        wake_outbox: Callable[[], None],
    ) -> None:
        self._skips_warned = SkipsWarned(meta, SKIPS_WARNED_THROUGH)
        self._seasons = seasons
        self._standings = standings
        self._channels = channels
        self._clock = clock
        self._wake_outbox = wake_outbox

    def plan(self, channel: ChannelSettings) -> SlotPlan | None:
        return season_plan(channel)

    def plan_groups(
        self, channels: Sequence[ChannelSettings], platforms: Collection[str]
    ) -> Iterator[tuple[SlotPlan, list[int]]]:
        """Every channel's turns at once (start-up), beside the channels they are for."""
        return ((plan, same.ids) for plan, same in self._planned(channels, platforms))

    @staticmethod
    def _planned(
        channels: Sequence[ChannelSettings], platforms: Collection[str] | None
    ) -> Iterator[tuple[SlotPlan, Alike[SeasonLength]]]:
        """One plan for each zone's channels with seasons of one length (the channels of
        ``platforms``; None: of every platform)."""
        alikes = alike_by(zone_groups(channels, platforms), _LENGTH)
        return planned(alikes, lambda channel, _length: season_plan(channel))

    async def on_slot(self, channel_id: int, slot: datetime) -> None:
        """A turn fired: record the season that ended, once."""
        channel = await self._channels.get_channel_by_id(channel_id)
        if channel is None or self.plan(channel) is None:
            return
        await self._record(channel, slot)

    async def catch_up(
        self, channels: Sequence[ChannelSettings], platforms: Collection[str] | None = None
    ) -> None:
        """At start: each channel's latest turn, if within its grace window, once (the
        channels of ``platforms``; None: of every platform). What is due is worked out once
        for each zone's channels with seasons of one length, not for each of 10,000
        channels; the turns missed beyond their window are one warning, once."""
        now = self._clock.now()
        due: list[tuple[ChannelSettings, datetime]] = []
        missed: list[tuple[ChannelSettings, datetime]] = []
        for plan, same in self._planned(channels, platforms):
            decision = missed_slot(plan.spec, plan.tz, now, plan.grace, None)
            if decision.post is not None:
                due += ((channel, decision.post) for channel in same.channels)
            elif decision.newest_skipped is not None:
                missed += ((channel, decision.newest_skipped) for channel in same.channels)
        for channel, turn in due:
            await self._record(channel, turn)
        await self._warn_missed(missed)

    async def _warn_missed(self, missed: list[tuple[ChannelSettings, datetime]]) -> None:
        """One warning for the turns missed beyond their grace window that would have
        posted (a season with a round, not recorded), once: a mark in the store's facts
        keeps later starts from warning about the same turns again."""
        warned_through = await self._skips_warned.through()
        fresh = [(c, t) for c, t in missed if warned_through is None or t > warned_through]
        by_season: dict[tuple[str, datetime, datetime], list[int]] = {}
        for channel, turn in fresh:
            season = ended_at_turn(turn, channel.timezone, channel.seasons)
            start, end = season.bounds(channel.timezone)
            by_season.setdefault((season.name, start, end), []).append(channel.id)
        lost: set[int] = set()
        for (name, start, end), ids in by_season.items():
            lost |= await self._seasons.unposted_with_rounds(ids, name, start, end)
        turns = [t for c, t in fresh if c.id in lost]
        if turns:
            log.warning(
                "the turns of season of %d channel(s), due %s to %s, are older than the grace"
                " window; their champions are not posted (`/quiz season` shows the standings)",
                len(turns),
                min(turns).isoformat(),
                max(turns).isoformat(),
            )
        await self._skips_warned.warned(t for _, t in fresh)

    async def _record(self, channel: ChannelSettings, turn: datetime) -> None:
        season = ended_at_turn(turn, channel.timezone, channel.seasons)
        key = season_key(channel.id, season.name)
        if await self._seasons.season_by_key(key) is not None:
            return  # recorded already (a restart, another replica)
        start, end = season.bounds(channel.timezone)
        last_round = await self._seasons.last_round_in_season(channel.id, start, end)
        if last_round is None:
            log.info(
                "no round in season %s: nothing to post", season.name, extra=about(channel.ref)
            )
            return
        standings = await self._standings.of(channel, season, end)
        record = SeasonRecord(channel.id, season.name, start, end, key, standings.champions())
        if await self._seasons.record_season(record, last_round, self._clock.now()):
            log.info("season %s recorded", season.name, extra=about(channel.ref))
            self._wake_outbox()

    async def card(self, channel: ChannelSettings, key: str) -> Card | None:
        """The post of the season ``key`` names, from what was recorded; None: none."""
        record = await self._seasons.season_by_key(key)
        if record is None:
            return None
        return season_post_card(record, channel.season_role)


_LENGTH = operator.attrgetter("seasons")  # a channel's seasons' length


def season_plan(channel: ChannelSettings) -> SlotPlan | None:
    """The channel's turns; None when seasons are off or the channel is disabled. A
    paused channel keeps its seasons: a season with no round posts nothing."""
    schedule = turn_schedule(channel.seasons)
    if schedule is None or channel.disabled_reason is not None:
        return None
    try:
        return channel_plan(channel, schedule)
    except ScheduleError as problem:
        log.error("no seasons: %s", problem, extra=about(channel.ref))
        return None
