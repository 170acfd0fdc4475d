"""What a channel's admin is told, and the channel is shown, when the answer coach is turned
on: the port the channel settings use, offered by the coach's feature (which knows the
operator's endpoint) without the channels knowing it."""

from __future__ import annotations

from typing import Protocol

from bot.kernel.models import ChannelSettings


class CoachConsent(Protocol):
    def reader(self) -> str | None:
        """What reads the answers ("the model M at host H"); None when the operator set no
        endpoint (then nothing can be turned on)."""
        ...

    def missing_settings(self) -> str:
        """What the operator must set for the coach to run, as an admin is told."""
        ...

    async def announce(self, channel: ChannelSettings) -> None:
        """Queue the one post telling the channel what reads its answers from now on."""
        ...
