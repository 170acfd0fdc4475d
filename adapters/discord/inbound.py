"""Translate Discord gateway objects into the core's typed events.

Event ids are stable across gateway replays and REST reconciliation, so the
core's ``processed_events`` table drops a second delivery of the same fact:
the message id for an answer, ``edit:<message>:<edited timestamp>`` for an
edit, ``reaction:<message>:<user>:<emoji>`` for a reaction and the interaction
id for a command or button press.
"""

from __future__ import annotations

from datetime import datetime

import discord

from bot.events import Reaction, Reply
from bot.refs import ChannelRef, MemberRef, MessageRef, ThreadRef

PLATFORM = "discord"


def channel_ref(guild_id: int | None, channel_id: int, name: str = "") -> ChannelRef:
    return ChannelRef(PLATFORM, str(guild_id or 0), str(channel_id), name)


def member_ref(guild_id: int | None, user_id: int, display_name: str = "") -> MemberRef:
    return MemberRef(PLATFORM, str(guild_id or 0), str(user_id), display_name)


def reaction_id(message_id: int | str, user_id: int | str, emoji: str) -> str:
    return f"reaction:{message_id}:{user_id}:{emoji}"


def edit_id(message_id: int | str, edited_at: datetime | None) -> str:
    stamp = edited_at.isoformat() if edited_at is not None else "unknown"
    return f"edit:{message_id}:{stamp}"


class ChannelResolver:
    """Knows, for any channel id, the quiz channel it belongs to (a thread's parent).

    Uses the gateway cache, then one REST fetch per unknown channel, remembered.
    """

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._parents: dict[int, int | None] = {}

    def remember(self, thread_id: int, parent_id: int) -> None:
        self._parents[thread_id] = parent_id

    async def parent_of(self, channel_id: int) -> int | None:
        """The parent channel id when ``channel_id`` is a thread, else None."""
        if channel_id in self._parents:
            return self._parents[channel_id]
        channel = self._client.get_channel(channel_id)
        if channel is None:
            channel = await self._client.fetch_channel(channel_id)
        parent = channel.parent_id if isinstance(channel, discord.Thread) else None
        self._parents[channel_id] = parent
        return parent


def reaction_event(
    payload: discord.RawReactionActionEvent, quiz_channel_id: int, *, is_bot: bool
) -> Reaction:
    guild_id = payload.guild_id
    emoji = str(payload.emoji)
    name = payload.member.display_name if payload.member is not None else ""
    return Reaction(
        event_id=reaction_id(payload.message_id, payload.user_id, emoji),
        channel=channel_ref(guild_id, quiz_channel_id),
        message=MessageRef(channel_ref(guild_id, payload.channel_id), str(payload.message_id)),
        member=member_ref(guild_id, payload.user_id, name),
        emoji=emoji,
        is_bot=is_bot,
    )


def reply_event(message: discord.Message, quiz_channel_id: int, *, edited: bool = False) -> Reply:
    guild_id = message.guild.id if message.guild is not None else None
    if guild_id is None:
        guild_id = getattr(message.channel, "guild_id", None)
    thread_channel = channel_ref(guild_id, message.channel.id)
    quiz_channel = channel_ref(guild_id, quiz_channel_id)
    event_id = edit_id(message.id, message.edited_at) if edited else str(message.id)
    return Reply(
        event_id=event_id,
        channel=quiz_channel,
        thread=ThreadRef(quiz_channel, str(message.channel.id)),
        message=MessageRef(thread_channel, str(message.id)),
        member=member_ref(guild_id, message.author.id, message.author.display_name),
        text=message.content,
        edited=edited,
        is_bot=message.author.bot,
    )
