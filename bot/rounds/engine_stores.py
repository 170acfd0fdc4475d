"""What the round engine keeps of the store: the ports of the aggregates a round reads and
writes, never the whole :class:`~bot.store.Store` (which names every feature's aggregate)."""

from __future__ import annotations

from typing import Protocol

from bot.bank.store import BankStore
from bot.kernel.members import MemberIds
from bot.kernel.stores import ChannelStore, MetaStore
from bot.outbox.store import OutboxStore
from bot.rounds.store import AnswerStore, RoundStore


class EngineStores(Protocol):
    @property
    def channels(self) -> ChannelStore: ...

    @property
    def meta(self) -> MetaStore: ...

    @property
    def rounds(self) -> RoundStore: ...

    @property
    def members(self) -> MemberIds: ...

    @property
    def answers(self) -> AnswerStore: ...

    @property
    def outbox(self) -> OutboxStore: ...

    @property
    def bank(self) -> BankStore: ...
