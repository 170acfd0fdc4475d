"""The notices feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.feature import ErasedTable, Feature, Listed, OnHome, Parts
from bot.kernel.clock import Clock
from bot.kernel.stores import ChannelStore
from bot.notices.commands import NOTIFY, NoticeCommands
from bot.notices.home_switch import MemberChannels, NoticeSwitch
from bot.notices.performers import NoticePerformers
from bot.notices.store import NoticeStore
from bot.rounds.store import AnswerStore


class NoticesStores(Protocol):
    @property
    def notices(self) -> NoticeStore: ...
    @property
    def answers(self) -> AnswerStore: ...
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
        handlers=(NoticeCommands(store.notices, store.answers, deps.clock),),
        performers=deps.notices.performers(),
        home_switches=(OnHome(20, NoticeSwitch(store.notices, store.member_data, store.channels)),),
    )


FEATURE: Feature[NoticesDeps] = Feature(
    "notices",
    subcommands=(Listed(140, NOTIFY),),
    build=build,
    aggregates=("notices",),
    member_tables=(ErasedTable("notice_members", "the channels they asked to be told of"),),
)
