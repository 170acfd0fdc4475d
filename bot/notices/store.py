"""The notices aggregate's seam: who asked to be told when a channel's question posts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.kernel.refs import ChannelRef


@dataclass(frozen=True, slots=True)
class Subscriber:
    """A member who turned notices on in a channel, and their DM channel with the bot."""

    member_id: int
    direct: ChannelRef


class NoticeStore(Protocol):
    """Persistence of notice subscriptions. Every write is committed before it returns."""

    async def subscribe(
        self, channel_id: int, member_id: int, direct: ChannelRef, at: datetime
    ) -> bool:
        """Turn the member's notices on in the channel; False when they were on already."""
        ...

    async def unsubscribe(self, channel_id: int, member_id: int) -> bool:
        """Turn them off; False when they were off."""
        ...

    async def is_subscribed(self, channel_id: int, member_id: int) -> bool: ...

    async def subscribers(self, channel_id: int) -> list[Subscriber]:
        """The channel's subscribers, in the order they turned notices on."""
        ...
