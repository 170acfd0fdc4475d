"""The recaps feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol

from bot.channels.editor import ChannelSettingsEditor
from bot.feature import ChannelSchedule, Feature, OnMe, Parts
from bot.kernel.clock import Clock
from bot.kernel.models import ChannelSettings
from bot.recaps.commands import SUBCOMMANDS, RecapCommands
from bot.recaps.me_section import ActivitySection
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

    async def begin(channels: Sequence[ChannelSettings], platforms: Collection[str]) -> None:
        await recaps.load(channels)
        await recaps.catch_up(channels, platforms)

    return Parts(
        handlers=(RecapCommands(recaps, deps.settings, clock),),
        performers=(RecapPost(recaps.card, deps.store.recaps, clock).performer(),),
        schedules=(
            ChannelSchedule("recap", begin, recaps.plan, recaps.on_slot, recaps.plan_groups),
        ),
        me_sections=(OnMe(10, ActivitySection(recaps)),),
    )


FEATURE: Feature[RecapsDeps] = Feature(
    "recaps",
    subcommands=SUBCOMMANDS,
    build=build,
    aggregates=("recaps",),
)
