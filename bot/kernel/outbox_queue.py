"""The outbox queue port: how a feature hands the outbox work to do (its own actions, a
message to a member's direct channel) without taking the round engine that offers it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.kernel.models import OutboxDraft
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card


class OutboxQueue(Protocol):
    async def queue(self, drafts: Sequence[OutboxDraft]) -> None:
        """Queue outbox actions in one transaction (a key already queued stays as it is)
        and wake the outbox."""
        ...

    async def send_direct(self, destination: ChannelRef, card: Card, key: str) -> None:
        """Queue ``card`` for ``destination`` under ``key``: sent once, however often this
        is called with that key."""
        ...
