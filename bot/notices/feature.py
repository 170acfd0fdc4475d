"""The notices feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.feature import ErasedTable, Feature, OnPage, Parts
from bot.kernel.clock import Clock
from bot.kernel.members import MemberIds
from bot.kernel.stores import ChannelStore
from bot.notices.commands import SUBCOMMANDS, NoticeCommands
from bot.notices.performers import NoticePerformers
from bot.notices.setting_on_page import MemberChannels, NoticesOnPage
from bot.notices.store import NoticeStore


class NoticesStores(Protocol):
    @property
    def notices(self) -> NoticeStore: ...
    @property
    def members(self) -> MemberIds: ...
    @property
    def member_data(self) -> MemberChannels: ...
    @property
    def channels(self) -> ChannelStore: ...


class NoticesDeps(Protocol):
    @property
    def store(self) -> NoticesStores: ...
    @property
    def notices(self) -> NoticePerformers: ...
    @property
    def clock(self) -> Clock: ...


def build(deps: NoticesDeps) -> Parts:
    store = deps.store
    return Parts(
        handlers=(NoticeCommands(store.notices, store.members, deps.clock),),
        performers=deps.notices.performers(),
        settings_on_page=(
            OnPage(20, NoticesOnPage(store.notices, store.member_data, store.channels)),
        ),
    )


FEATURE: Feature[NoticesDeps] = Feature(
    "notices",
    subcommands=SUBCOMMANDS,
    build=build,
    aggregates=("notices",),
    member_tables=(ErasedTable("notice_members", "the channels they asked to be told of"),),
)
