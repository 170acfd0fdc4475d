"""Discord as a quiz platform: the :class:`~bot.kernel.platform.Platform` and
:class:`~bot.kernel.runtime.Connector` of the core, on discord.py.

Outbound calls use partial channel and message objects, so nothing depends on
the gateway cache (which is empty after a restart). Every send carries a nonce
derived from the outbox key (discord.py adds ``enforce_nonce``) and
``AllowedMentions.none()``.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import discord

from adapters.discord.card_sends import send_card
from adapters.discord.client import (
    IDENTIFY_INTERVAL,
    QuizClient,
    ShardedQuizClient,
)
from adapters.discord.endpoint import use_api_base, use_gateway_of
from adapters.discord.errors import platform_errors
from adapters.discord.gateway_end import end_cause
from adapters.discord.inbound import (
    PLATFORM,
    ChannelResolver,
    channel_ref,
    direct_ref,
)
from adapters.discord.listeners import DiscordListeners
from adapters.discord.mentions import NO_MENTIONS, ROLE_FORM, mentioned_role
from adapters.discord.nonce import marker_for_key
from adapters.discord.pacing import (
    DEFAULT_REQUESTS_PER_SECOND,
    GlobalPacer,
    pacing_trace,
    send_slots,
)
from adapters.discord.pending import DEFAULT_LIMIT, FIRST_DELAY_SECONDS, PendingEvents
from adapters.discord.private_threads import open_private_thread
from adapters.discord.recent import RecentInteractions
from adapters.discord.reconcile import OpenRound, Reconciler, RoundSource, open_rounds
from adapters.discord.render import attachments, render_card
from adapters.discord.responses import tell as tell_interaction
from adapters.discord.shards import ShardPlan
from adapters.discord.slash_commands import COMMAND_PATHS
from adapters.discord.sync import MetaStore, sync_if_changed
from adapters.unfinished_sends import SendProgress
from bot.kernel.errors import PlatformError
from bot.kernel.events import Event
from bot.kernel.platform import DataFile
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.kernel.render import Card
from bot.kernel.runtime import EventHandler

log = logging.getLogger(__name__)

THREAD_NAME_LIMIT = 100
THREAD_ALREADY_EXISTS = 160004
THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440  # a day: the round's life


class DiscordStore(RoundSource, Protocol):
    """What the adapter needs from the store: the command hash, the open rounds and the
    parts of unfinished multi-part sends."""

    @property
    def meta(self) -> MetaStore: ...

    @property
    def unfinished_cards(self) -> SendProgress: ...


@dataclass(frozen=True, slots=True)
class DiscordOptions:
    """How to reach Discord: token, API override, development guild, vote emoji."""

    token: str
    api_url: str | None = None
    dev_guild: int | None = None
    history_limit: int = 100
    guild_ready_timeout: float = 2.0
    ready_timeout: float = 60.0
    vote_emoji: str = "👍"
    pending_limit: int = DEFAULT_LIMIT
    retry_first_delay: float = FIRST_DELAY_SECONDS
    requests_per_second: float | None = DEFAULT_REQUESTS_PER_SECOND  # None: no pacing
    shards: ShardPlan | None = None  # None: one shard, the whole bot
    identify_interval: float = IDENTIFY_INTERVAL  # between the shards' IDENTIFYs


class DiscordPlatform:
    """One Discord bot connection serving every guild it is invited to."""

    name = PLATFORM
    admin_rule = "the **Manage Server** permission"
    command_paths = COMMAND_PATHS  # the core's CommandPaths: how help names them
    group_form = ROLE_FORM  # the core's GroupMentions: a role, for /quiz config ping

    def __init__(
        self,
        options: DiscordOptions,
        *,
        topics: Callable[[], Sequence[str]],
        store: DiscordStore,
    ) -> None:
        self._options = options
        self._store = store
        rate = options.requests_per_second
        # the outbox's rounds at once (bot.kernel.platform.SendSlots)
        self.send_slots = send_slots(rate)
        client_options: dict[str, Any] = {
            "guild_ready_timeout": options.guild_ready_timeout,
            "http_trace": pacing_trace(GlobalPacer(rate)) if rate is not None else None,
        }
        shards = options.shards
        self._recent = RecentInteractions()
        listeners = DiscordListeners(self, self._recent)
        self._client = (
            QuizClient(listeners, topics, **client_options)
            if shards is None
            else ShardedQuizClient(
                listeners,
                topics,
                shard_ids=shards.ids,
                shard_count=shards.count,
                identify_interval=options.identify_interval,
                **client_options,
            )
        )
        self._channels = ChannelResolver(self._client)
        self._handler: EventHandler | None = None
        self._pending: PendingEvents | None = None
        self._ready = asyncio.Event()
        self._connected = False
        self._gateway_task: asyncio.Task[None] | None = None
        self._stopping = False
        self._ended = asyncio.Event()
        self._end_cause: str | None = None
        self._reconcile_task: asyncio.Task[int] | None = None
        self._reconcile_again = False
        self.reconciler = Reconciler(self._client, self._channels, vote_emoji=options.vote_emoji)

    @property
    def client(self) -> discord.Client:
        return self._client

    @property
    def channels(self) -> ChannelResolver:
        return self._channels

    @property
    def handler(self) -> EventHandler | None:
        """Where events go; None until started."""
        return self._handler

    async def deliver(self, event: Event) -> None:
        """An answer, edit or reaction to the core; kept and retried if not recorded."""
        if self._pending is None:
            raise RuntimeError("the Discord platform is not started")
        await self._pending.deliver(event)

    # Connector

    @property
    def connected(self) -> bool:
        return self._connected and not self._client.is_closed()

    async def start(self, handler: EventHandler) -> None:
        """Log in, sync commands if they changed, connect, and wait for the first READY."""
        if self._gateway_task is not None:
            raise RuntimeError("the Discord platform is already started")
        self._handler = handler
        self._pending = PendingEvents(
            handler, limit=self._options.pending_limit, first_delay=self._options.retry_first_delay
        )
        if self._options.api_url:
            use_api_base(self._options.api_url)
        try:
            await self._client.login(self._options.token)
        except discord.LoginFailure as error:
            await self._client.close()
            raise PlatformError("Discord rejected QUIZBOT_DISCORD_TOKEN (401)") from error
        except (discord.HTTPException, OSError) as error:
            await self._client.close()
            raise PlatformError(f"cannot log in to Discord: {type(error).__name__}") from error
        with platform_errors("connecting to Discord"):
            if self._options.api_url:
                gateway = await use_gateway_of(self._client.http)
                log.info("Discord gateway from the API override: %s", gateway)
            await self._sync_commands()
        self._gateway_task = asyncio.create_task(self._run_gateway(), name="discord-gateway")
        ready = asyncio.create_task(self._ready.wait())
        done, _ = await asyncio.wait(
            {ready, self._gateway_task},
            timeout=self._options.ready_timeout,
            return_when=asyncio.FIRST_COMPLETED,
        )
        if ready not in done:
            ready.cancel()
            cause = self._end_cause
            await self.stop()
            raise PlatformError(cause or "the Discord gateway did not become ready in time")

    async def _sync_commands(self) -> None:
        application_id = self._client.application_id
        if application_id is None:
            raise PlatformError("Discord did not tell the application id")
        await sync_if_changed(
            self._client.tree, application_id, self._options.dev_guild, self._store.meta
        )

    async def _run_gateway(self) -> None:
        """Run the gateway until it ends: by ``stop`` or, for good, with a cause that
        ``until_ended`` hands to the runtime (which then exits non-zero)."""
        error: BaseException | None = None
        try:
            await self._client.connect(reconnect=True)
        except Exception as failure:
            error = failure
        finally:
            self._connected = False
        if self._stopping:
            return
        self._end_cause = end_cause(error)
        if self._ready.is_set():  # at start-up, start() reports the cause instead
            log.error("%s", self._end_cause)
        self._ended.set()

    async def until_ended(self) -> str:
        """Wait until the gateway ended for good (not by ``stop``); returns why."""
        await self._ended.wait()
        return self._end_cause or "the Discord gateway connection ended"

    async def stop(self) -> None:
        self._stopping = True
        self._connected = False
        await self._client.close()
        for task in (self._reconcile_task, self._gateway_task):
            if task is None:
                continue
            if not task.done():
                task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
            except Exception:
                log.debug("background task ended with an error (already logged)")
        self._gateway_task = None
        self._reconcile_task = None
        if self._pending is not None:
            await self._pending.close()

    # gateway life cycle (told by the listeners)

    async def gateway_ready(self) -> None:
        """READY may come many times (new sessions); every one can follow missed events."""
        self._connected = True
        self._ready.set()
        self.request_reconcile()

    async def gateway_resumed(self) -> None:
        self._connected = True
        self.request_reconcile()

    def gateway_disconnected(self) -> None:
        self._connected = False

    def request_reconcile(self) -> None:
        """Reconcile the open rounds in the background (one run at a time)."""
        if self._handler is None:
            return
        if self._reconcile_task is not None and not self._reconcile_task.done():
            self._reconcile_again = True
            return
        self._reconcile_task = asyncio.create_task(self._reconcile_loop(), name="discord-reconcile")
        self._reconcile_task.add_done_callback(_log_failure)

    async def _reconcile_loop(self) -> int:
        fed = 0
        while True:
            self._reconcile_again = False
            fed += await self.reconcile_open_rounds()
            if not self._reconcile_again:
                return fed

    async def reconcile_open_rounds(self) -> int:
        """Feed reactions and thread messages made while offline; returns the events fed."""
        self._require_handler()
        rounds = await open_rounds(self._store)
        return await self.reconcile(self.deliver, rounds)

    async def reconcile(self, handler: EventHandler, rounds: Sequence[OpenRound]) -> int:
        return await self.reconciler.run(handler, rounds)

    def _require_handler(self) -> EventHandler:
        if self._handler is None:
            raise RuntimeError("the Discord platform is not started")
        return self._handler

    # Platform: outbound

    def _messageable(self, channel: ChannelRef | str, workspace: str) -> discord.PartialMessageable:
        channel_id = channel.channel_id if isinstance(channel, ChannelRef) else channel
        guild_id = int(workspace) or None
        return self._client.get_partial_messageable(int(channel_id), guild_id=guild_id)

    async def _send_card(
        self, target: discord.PartialMessageable, card: Card, key: str, where: str
    ) -> str:
        """Send the card's parts; the id of the first part stands for the card."""
        return await send_card(target, card, key, where, self._store.unfinished_cards)

    async def open_direct(self, member: MemberRef) -> ChannelRef:
        """The member's DM channel with the bot (``POST /users/@me/channels``)."""
        with platform_errors("opening a DM"):
            opened = await self._client.http.start_private_message(int(member.member_id))
        return direct_ref(opened["id"])

    async def send_file(self, member: MemberRef, file: DataFile) -> str:
        """The core's ``SendsFiles``: the file as an attachment in the member's DM."""
        direct = await self.open_direct(member)
        target = self._messageable(direct, direct.workspace)
        with platform_errors("sending a file in a DM"):
            await target.send(
                content=file.comment,
                file=discord.File(io.BytesIO(file.content), filename=file.filename),
                allowed_mentions=NO_MENTIONS,
            )
        return "in your direct messages with me"

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        target = self._messageable(channel, channel.workspace)
        sent = await self._send_card(target, card, key, f"posting to {channel.label()}")
        return MessageRef(channel, sent)

    async def open_thread(self, message: MessageRef, title: str, *, key: str) -> ThreadRef:
        channel = message.channel
        name = title.strip()[:THREAD_NAME_LIMIT] or "Answers"
        try:
            with platform_errors(f"opening a thread in {channel.label()}"):
                # The raw route needs no guild in the cache (empty after a restart).
                data = await self._client.http.start_thread_with_message(
                    int(channel.channel_id),
                    int(message.message_id),
                    name=name,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
        except PlatformError as problem:
            cause = problem.__cause__
            if isinstance(cause, discord.HTTPException) and cause.code == THREAD_ALREADY_EXISTS:
                # A retried open: a thread started from a message has the message's id.
                self._channels.remember(int(message.message_id), int(channel.channel_id))
                return ThreadRef(channel, message.message_id)
            raise
        thread_id = int(data["id"])
        self._channels.remember(thread_id, int(channel.channel_id))
        return ThreadRef(channel, str(thread_id))

    async def open_shared(
        self,
        channel: ChannelRef,
        members: Sequence[MemberRef],
        title: str,
        *,
        key: str,
        again: bool = False,
    ) -> ChannelRef:
        """A private thread in the quiz channel with exactly ``members`` added (bots
        cannot open group DMs on Discord; permission "Create Private Threads"). Adding a
        member pings nobody else; the thread is not invitable, so only moderators join."""
        name = title.strip()[:THREAD_NAME_LIMIT] or "Mock interview"
        with platform_errors(f"opening a private thread in {channel.label()}"):
            thread_id = await open_private_thread(self._client, channel, members, name, again)
        return channel_ref(int(channel.workspace) or None, thread_id, name)

    async def reply(self, thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        workspace = thread.channel.workspace
        target = self._messageable(thread.thread_id, workspace)
        sent = await self._send_card(target, card, key, f"replying in {thread.channel.label()}")
        return MessageRef(channel_ref(int(workspace) or None, int(thread.thread_id)), sent)

    async def react(self, message: MessageRef, emoji: str) -> None:
        channel = message.channel
        target = self._messageable(channel, channel.workspace).get_partial_message(
            int(message.message_id)
        )
        with platform_errors(f"reacting in {channel.label()}"):
            await target.add_reaction(emoji)

    async def tell(self, member: MemberRef, channel: ChannelRef, card: Card) -> None:
        """Ephemeral through the member's recent interaction, else a direct message."""
        interaction = self._recent.interaction_of(member)
        if interaction is not None:
            with platform_errors(f"telling {member.label()}"):
                await tell_interaction(interaction, card)
            return
        with platform_errors(f"telling {member.label()} directly"):
            user = await self._client.fetch_user(int(member.member_id))
            for part, embeds in enumerate(render_card(card)):
                await user.send(
                    embeds=embeds, files=attachments(card, part), allowed_mentions=NO_MENTIONS
                )

    async def find_sent(
        self, channel: ChannelRef, key: str, *, thread: ThreadRef | None = None
    ) -> MessageRef | None:
        """The message sent for ``key`` (its footer marker) in the recent history of
        ``thread`` or, without one, of the channel."""
        if await self._store.unfinished_cards.unfinished_card(key) is not None:
            return None  # some parts are out, not all: the retry resumes the card
        marker = marker_for_key(key, 0)
        where = thread.thread_id if thread else channel.channel_id
        with platform_errors(f"looking for {key} in {channel.label()}"):
            try:
                found = await self._find_marker(where, channel.workspace, marker)
            except discord.NotFound:
                return None  # the thread is gone
        if found is None:
            return None
        if thread is None:
            return MessageRef(channel, found)
        return MessageRef(channel_ref(int(channel.workspace) or None, int(thread.thread_id)), found)

    async def _find_marker(self, channel_id: str, workspace: str, marker: str) -> str | None:
        target = self._messageable(channel_id, workspace)
        me = self._client.user.id if self._client.user else None
        async for message in target.history(limit=self._options.history_limit):
            if me is not None and message.author.id != me:
                continue
            for embed in message.embeds:
                if embed.footer.text and embed.footer.text.endswith(marker):
                    return str(message.id)
        return None

    async def link(self, message: MessageRef, thread: ThreadRef | None = None) -> str | None:
        where = thread.thread_id if thread is not None else message.channel.channel_id
        return (
            f"https://discord.com/channels/{message.channel.workspace}/{where}/{message.message_id}"
        )

    def mentioned_group(self, typed: str) -> str | None:
        """The core's ``GroupMentions``: the role a ``<@&id>`` mention names."""
        return mentioned_role(typed)

    async def is_admin(self, member: MemberRef, channel: ChannelRef) -> bool:
        """A member with Manage Server (or Administrator) in the channel's guild."""
        remembered = self._recent.admin(member)
        if remembered is not None:
            return remembered
        with platform_errors(f"checking the permissions of {member.label()}"):
            guild = self._client.get_guild(int(member.workspace))
            if guild is None:
                guild = await self._client.fetch_guild(int(member.workspace))
            found = await guild.fetch_member(int(member.member_id))
            allowed = found.guild_permissions.manage_guild
        self._recent.remember_admin(member, allowed)
        return allowed


def _log_failure(task: asyncio.Task[int]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.error("reconciling open Discord rounds failed", exc_info=error)
    else:
        log.info("reconciled open Discord rounds: %d event(s) fed", task.result())
