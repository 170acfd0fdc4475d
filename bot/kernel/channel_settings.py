"""The channel settings port: a quiz channel's settings by its reference, cached by the
round engine that offers it, so a feature reads them without taking the engine."""

from __future__ import annotations

from typing import Protocol

from bot.kernel.models import ChannelSettings
from bot.kernel.refs import ChannelRef


class ChannelSettingsLookup(Protocol):
    async def channel(self, ref: ChannelRef) -> ChannelSettings | None: ...
