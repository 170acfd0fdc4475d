"""Translate Discord gateway objects into the core's typed events.

Event ids are stable across gateway replays and REST reconciliation, so the
core's ``processed_events`` table drops a second delivery of the same fact:
the message id for an answer, ``edit:<message>:<edited timestamp>`` for an
edit, ``reaction:<message>:<user>:<emoji>`` for a reaction and the interaction
id for a command or button press.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

import aiohttp
import discord

from adapters.discord.errors import translate
from bot.kernel.events import DirectMessage, Reaction, Reply
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef

PLATFORM = "discord"
LOOKUP_ATTEMPTS = 5
LOOKUP_FIRST_DELAY = 0.5  # then 1, 2, 4 s
REMEMBERED_CHANNELS = 100_000
UNKNOWN = -1  # remembered for a channel Discord does not show the bot

log = logging.getLogger(__name__)


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
    A transient failure of that fetch (5xx, 429, network) is retried with backoff,
    so it does not lose the answer that asked; a channel Discord does not know or
    does not show the bot (404, 403) counts as no thread, with a debug line.
    """

    def __init__(
        self,
        client: discord.Client,
        *,
        attempts: int = LOOKUP_ATTEMPTS,
        first_delay: float = LOOKUP_FIRST_DELAY,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._client = client
        self._parents: dict[int, int | None] = {}
        self._attempts = attempts
        self._first_delay = first_delay
        self._sleep = sleep

    def remember(self, thread_id: int, parent_id: int) -> None:
        self._parents[thread_id] = parent_id

    async def parent_of(self, channel_id: int) -> int | None:
        """The parent channel id when ``channel_id`` is a thread, else None.

        Raises PlatformError when Discord kept failing transiently."""
        parent = await self._resolve(channel_id)
        return None if parent == UNKNOWN else parent

    async def quiz_channel_of(self, channel_id: int) -> int | None:
        """The channel an event in ``channel_id`` counts for (a thread's parent, else the
        channel itself); None for a channel the bot does not know."""
        parent = await self._resolve(channel_id)
        if parent == UNKNOWN:
            return None
        return parent or channel_id

    async def _resolve(self, channel_id: int) -> int | None:
        if channel_id in self._parents:
            return self._parents[channel_id]
        channel: object = self._client.get_channel(channel_id)
        if channel is None:
            channel = await self._fetch(channel_id)
        if channel is None:
            parent: int | None = UNKNOWN
        else:
            parent = channel.parent_id if isinstance(channel, discord.Thread) else None
        if len(self._parents) >= REMEMBERED_CHANNELS:
            self._parents.clear()
        self._parents[channel_id] = parent
        return parent

    async def _fetch(self, channel_id: int) -> object:
        delay = self._first_delay
        for attempt in range(1, self._attempts + 1):
            try:
                return await self._client.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden) as error:
                log.debug(
                    "channel %d is unknown to the bot (%s): not a quiz thread", channel_id, error
                )
                return None
            except (discord.HTTPException, OSError, aiohttp.ClientError, TimeoutError) as error:
                transient = not isinstance(error, discord.HTTPException) or (
                    error.status == 429 or error.status >= 500
                )
                if not transient or attempt == self._attempts:
                    raise translate(error, f"looking up Discord channel {channel_id}") from error
                log.debug("looking up channel %d failed (%s); retrying", channel_id, error)
                await self._sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")


def is_snowflake(value: object) -> bool:
    """A Discord id: a positive integer below 2**64 (anything else is a malformed payload)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**64


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


def direct_ref(channel_id: int | str) -> ChannelRef:
    """A DM channel with the bot: it belongs to no guild."""
    return ChannelRef(PLATFORM, "0", str(channel_id), "DM")


def by_a_bot(message: discord.Message) -> bool:
    """Whether ``message`` is not a member's: a bot's, or a webhook's post (an integration,
    an interaction follow-up), whose author carries no ``bot`` flag. Every event built from
    a message (gateway, gateway replay, REST catch-up) says so here, and the core ignores
    such messages in one place."""
    return message.author.bot or message.webhook_id is not None


def direct_event(message: discord.Message) -> DirectMessage:
    channel = direct_ref(message.channel.id)
    return DirectMessage(
        event_id=str(message.id),
        channel=channel,
        message=MessageRef(channel, str(message.id)),
        member=member_ref(None, message.author.id, message.author.display_name),
        text=message.content,
        is_bot=by_a_bot(message),
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
        is_bot=by_a_bot(message),
    )
