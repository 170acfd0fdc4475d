"""The recaps feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.channels.editor import ChannelSettingsEditor
from bot.feature import Feature, Listed, Parts
from bot.kernel.clock import Clock
from bot.recaps.commands import RECAP, RecapCommands
from bot.recaps.performer import RecapPost
from bot.recaps.store import RecapStore
from bot.recaps.weekly import WeeklyRecaps


class RecapsStores(Protocol):
    @property
    def recaps(self) -> RecapStore: ...


class RecapsDeps(Protocol):
    @property
    def store(self) -> RecapsStores: ...
    @property
    def recaps(self) -> WeeklyRecaps: ...
    @property
    def settings(self) -> ChannelSettingsEditor: ...
    @property
    def clock(self) -> Clock: ...


def build(deps: RecapsDeps) -> Parts:
    recaps, clock = deps.recaps, deps.clock
    return Parts(
        handlers=(RecapCommands(recaps, deps.settings, clock),),
        performers=(RecapPost(recaps.card, deps.store.recaps, clock).performer(),),
    )


FEATURE: Feature[RecapsDeps] = Feature(
    "recaps",
    subcommands=(Listed(280, RECAP),),
    build=build,
)
