"""The away feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.away.commands import SUBCOMMANDS, AwayCommands
from bot.away.setting_on_page import AwayOnPage
from bot.away.store import AwayStore
from bot.feature import ErasedTable, Feature, OnPage, Parts
from bot.kernel.clock import Clock
from bot.kernel.config import QuizConfig
from bot.kernel.members import MemberIds


class AwayStores(Protocol):
    @property
    def away(self) -> AwayStore: ...
    @property
    def members(self) -> MemberIds: ...


class AwayDeps(Protocol):
    @property
    def store(self) -> AwayStores: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def config(self) -> QuizConfig: ...


def build(deps: AwayDeps) -> Parts:
    store = deps.store
    commands = AwayCommands(store.away, store.members, deps.clock, deps.config.default_timezone)
    return Parts(
        handlers=(commands,), settings_on_page=(OnPage(30, AwayOnPage(store.away, deps.clock)),)
    )


FEATURE: Feature[AwayDeps] = Feature(
    "away",
    subcommands=SUBCOMMANDS,
    build=build,
    aggregates=("away",),
    member_tables=(ErasedTable("away_periods", "by workspace and platform member id"),),
)
