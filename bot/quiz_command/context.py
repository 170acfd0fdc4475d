"""What a ``/quiz`` handler is told about the invocation it handles."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.kernel.events import Command
from bot.kernel.models import ChannelSettings
from bot.kernel.platform import Platform, ReactionEmoji

NO_QUIZ_YET = (
    "There is no quiz in this channel yet. An admin can start one with `/quiz now` "
    "or `/quiz schedule weekdays 09:30`."
)


@dataclass(frozen=True, slots=True)
class CommandContext:
    """One invocation: the event, the channel's quiz (if any), the platform it came from
    and the help's lines. What a handler works with otherwise, its feature gave it when
    its handlers were built."""

    event: Command
    channel: ChannelSettings | None
    usages: Sequence[tuple[str, str, bool]]  # each subcommand's form, summary, admin only
    platform: Platform | None = None

    async def reaction_emoji(self, emoji: str) -> str:
        """The emoji as the platform reacts with it; ``Refused`` when it cannot."""
        if isinstance(self.platform, ReactionEmoji):
            return await self.platform.reaction_emoji(emoji, self.event.channel)
        return emoji

    @property
    def quiz(self) -> ChannelSettings:
        """The channel's quiz; the runner only calls a handler that needs one when it exists."""
        if self.channel is None:
            raise LookupError(f"/quiz {self.event.name} ran without a quiz in the channel")
        return self.channel
