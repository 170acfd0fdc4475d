"""The member_data feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.feature import ErasedTable, Feature, KeptTable, Parts
from bot.kernel.clock import Clock
from bot.member_data.commands import SUBCOMMANDS, MemberDataCommands
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
    subcommands=SUBCOMMANDS,
    build=build,
    aggregates=("member_data",),
    # the core's own tables (members, the outbox, inbound event ids) belong to no feature:
    # the erasure, which reaches across all of them, accounts for them here
    member_tables=(
        ErasedTable("outbox", "sends to their direct messages (practice steps, reminders)"),
        ErasedTable("unfinished_cards", "the parts of those sends"),
        KeptTable(
            "members",
            "the row stays with its name blanked: the votes they gave others and the bank's"
            " edits and decisions they made as an admin point at it",
        ),
        KeptTable(
            "processed_events",
            "event ids only, pruned with the event retention: a redelivered answer or command"
            " of theirs is recognised and not recorded again",
        ),
    ),
)
