"""Catch up with what happened in open rounds while the bot was offline.

On start and after every new or resumed gateway session, each open round's
question message and thread are read back through REST: reveal reactions on
the question, member messages (and edits) in the thread and votes on them are
fed to the core as the same events the gateway would have delivered, with the
same event ids, so the core's ``processed_events`` makes each count once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import discord

from adapters.discord.inbound import (
    ChannelResolver,
    channel_ref,
    member_ref,
    reaction_id,
    reply_event,
)
from bot.kernel.emoji import same_emoji
from bot.kernel.errors import PlatformError
from bot.kernel.events import Reaction
from bot.kernel.models import ChannelSettings, Round
from bot.kernel.refs import ChannelRef, MessageRef
from bot.kernel.runtime import EventHandler

log = logging.getLogger(__name__)

ANSWER_TYPES = (discord.MessageType.default, discord.MessageType.reply)


class ChannelList(Protocol):
    async def list_channels(self) -> list[ChannelSettings]: ...


class OpenRounds(Protocol):
    async def open_round(self, channel_id: int) -> Round | None: ...


class RoundSource(Protocol):
    """The store's open rounds, as reconciliation reads them."""

    @property
    def channels(self) -> ChannelList: ...

    @property
    def rounds(self) -> OpenRounds: ...


@dataclass(frozen=True, slots=True)
class OpenRound:
    """An open round and its channel settings, to catch up on."""

    channel: ChannelRef
    question_message: str
    thread: str | None
    reveal_emoji: str


async def open_rounds(store: RoundSource) -> list[OpenRound]:
    """The open rounds of enabled Discord channels whose question is posted."""
    found: list[OpenRound] = []
    for channel in await store.channels.list_channels():
        if channel.ref.platform != "discord" or channel.disabled_reason:
            continue
        round_ = await store.rounds.open_round(channel.id)
        if round_ is None or round_.question_message is None:
            continue
        found.append(
            OpenRound(channel.ref, round_.question_message, round_.thread, channel.reveal_emoji)
        )
    return found


class Reconciler:
    """Feeds reactions missed while offline into the core, once per round and session."""

    def __init__(
        self,
        client: discord.Client,
        channels: ChannelResolver,
        *,
        vote_emoji: str,
        thread_limit: int = 500,
    ) -> None:
        self._client = client
        self._channels = channels
        self._vote_emoji = vote_emoji
        self._thread_limit = thread_limit

    def _me(self) -> int | None:
        return self._client.user.id if self._client.user else None

    async def run(self, handler: EventHandler, rounds: Sequence[OpenRound]) -> int:
        """Feed the missed events of ``rounds``; returns how many events were fed."""
        fed = 0
        for round_ in rounds:
            try:
                fed += await self._round(handler, round_)
            except (discord.DiscordException, OSError, PlatformError):
                log.exception("could not reconcile the open round in %s", round_.channel.label())
        return fed

    async def _round(self, handler: EventHandler, round_: OpenRound) -> int:
        fed = 0
        guild_id = int(round_.channel.workspace) or None
        channel_id = int(round_.channel.channel_id)
        if round_.thread is not None:
            self._channels.remember(int(round_.thread), channel_id)
            thread = self._client.get_partial_messageable(int(round_.thread), guild_id=guild_id)
            async for message in thread.history(limit=self._thread_limit, oldest_first=True):
                if message.author.id == self._me() or message.type not in ANSWER_TYPES:
                    continue
                await handler(reply_event(message, channel_id))
                fed += 1
                if message.edited_at is not None:
                    await handler(reply_event(message, channel_id, edited=True))
                    fed += 1
                fed += await self._reactions(
                    handler, round_.channel, message, self._vote_emoji, guild_id
                )
        channel = self._client.get_partial_messageable(channel_id, guild_id=guild_id)
        question = await channel.fetch_message(int(round_.question_message))
        fed += await self._reactions(
            handler, round_.channel, question, round_.reveal_emoji, guild_id
        )
        return fed

    async def _reactions(
        self,
        handler: EventHandler,
        quiz_channel: ChannelRef,
        message: discord.Message,
        emoji: str,
        guild_id: int | None,
    ) -> int:
        fed = 0
        where = MessageRef(channel_ref(guild_id, message.channel.id), str(message.id))
        for reaction in message.reactions:
            shown = str(reaction.emoji)
            if not same_emoji(shown, emoji):
                continue
            async for user in reaction.users():
                if user.id == self._me():
                    continue
                await handler(
                    Reaction(
                        event_id=reaction_id(message.id, user.id, shown),
                        channel=quiz_channel,
                        message=where,
                        member=member_ref(guild_id, user.id, user.display_name),
                        emoji=shown,
                        is_bot=user.bot,
                    )
                )
                fed += 1
        return fed
