"""The seasons feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Protocol

from bot.away.store import AwayStore
from bot.feature import ChannelSchedule, ErasedTable, Feature, OnMe, Parts
from bot.kernel.clock import Clock
from bot.kernel.models import ChannelSettings
from bot.kernel.stores import ChannelStore, MetaStore
from bot.learning.memory_model import MemoryModel
from bot.scheduling.skipped_days import SkippedDayStore
from bot.seasons.commands import SUBCOMMANDS, SeasonCommands
from bot.seasons.me_section import TitlesSection
from bot.seasons.performer import SeasonPost
from bot.seasons.standings import SeasonStandings
from bot.seasons.store import SeasonStore
from bot.seasons.turns import SeasonTurns


class SeasonsStores(Protocol):
    @property
    def seasons(self) -> SeasonStore: ...
    @property
    def away(self) -> AwayStore: ...
    @property
    def skipped_days(self) -> SkippedDayStore: ...
    @property
    def channels(self) -> ChannelStore: ...
    @property
    def meta(self) -> MetaStore: ...


class SeasonsOutbox(Protocol):
    def wake(self) -> None: ...


class SeasonsLearning(Protocol):
    async def workspace_model(self, platform: str, workspace: str) -> MemoryModel: ...


class SeasonsDeps(Protocol):
    @property
    def store(self) -> SeasonsStores: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def outbox(self) -> SeasonsOutbox: ...
    @property
    def learning(self) -> SeasonsLearning: ...


def build(deps: SeasonsDeps) -> Parts:
    store, clock = deps.store, deps.clock
    standings = SeasonStandings(
        store.seasons, store.away, store.skipped_days, deps.learning.workspace_model
    )
    wake: Callable[[], None] = deps.outbox.wake
    turns = SeasonTurns(
        seasons=store.seasons,
        standings=standings,
        channels=store.channels,
        meta=store.meta,
        clock=clock,
        wake_outbox=wake,
    )

    async def begin(channels: Sequence[ChannelSettings], platforms: Collection[str]) -> None:
        await turns.catch_up(channels, platforms)

    return Parts(
        handlers=(SeasonCommands(standings, store.seasons, clock),),
        performers=(SeasonPost(turns).performer(),),
        schedules=(ChannelSchedule("season", begin, turns.plan, turns.on_slot, turns.plan_groups),),
        me_sections=(OnMe(40, TitlesSection(store.seasons)),),
    )


FEATURE: Feature[SeasonsDeps] = Feature(
    "seasons",
    subcommands=SUBCOMMANDS,
    build=build,
    aggregates=("seasons",),
    member_tables=(ErasedTable("season_champions", "the titles the member won"),),
)
