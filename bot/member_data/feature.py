"""The member_data feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.feature import Feature, Listed, Parts
from bot.kernel.clock import Clock
from bot.member_data.commands import EXPORT, FORGET, MemberDataCommands
from bot.member_data.service import MemberDataService


class MemberDataDeps(Protocol):
    @property
    def member_data(self) -> MemberDataService: ...
    @property
    def clock(self) -> Clock: ...


def build(deps: MemberDataDeps) -> Parts:
    return Parts(handlers=(MemberDataCommands(deps.member_data, deps.clock),))


FEATURE: Feature[MemberDataDeps] = Feature(
    "member_data",
    subcommands=(
        Listed(110, EXPORT),
        Listed(120, FORGET),
    ),
    build=build,
)
