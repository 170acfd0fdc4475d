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
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, cast

import discord

from adapters.discord.buttons import valid_button_value, view_for
from adapters.discord.client import (
    IDENTIFY_INTERVAL,
    InboundRouter,
    QuizClient,
    ShardedQuizClient,
)
from adapters.discord.commands import ADMIN_COMMAND
from adapters.discord.endpoint import check_api_url, use_api_base, use_gateway_of
from adapters.discord.errors import platform_errors
from adapters.discord.forms import FormModal, expired_form, form_route, submitted_values
from adapters.discord.gateway_end import end_cause
from adapters.discord.inbound import (
    PLATFORM,
    ChannelResolver,
    channel_ref,
    direct_event,
    direct_ref,
    is_snowflake,
    member_ref,
    reaction_event,
    reply_event,
)
from adapters.discord.mentions import NO_MENTIONS, role_ping
from adapters.discord.nonce import marker_for_key, nonce_for_key
from adapters.discord.pacing import (
    DEFAULT_REQUESTS_PER_SECOND,
    GlobalPacer,
    pacing_trace,
    send_slots,
)
from adapters.discord.pending import DEFAULT_LIMIT, FIRST_DELAY_SECONDS, PendingEvents
from adapters.discord.reconcile import OpenRound, Reconciler, RoundSource, open_rounds
from adapters.discord.render import attachments, message_count, render_card
from adapters.discord.responses import defer, deliver, unless_gone
from adapters.discord.responses import tell as tell_interaction
from adapters.discord.settings import DiscordSettings
from adapters.discord.shards import ShardPlan, paced_rate, shard_plan
from adapters.discord.sync import MetaStore, sync_if_changed
from adapters.plugin import require
from adapters.unfinished_sends import SendProgress
from bot.form_replies import may_open_form
from bot.kernel import cards
from bot.kernel.errors import PlatformError
from bot.kernel.events import ButtonPress, Command, Event, FormSubmit
from bot.kernel.forms import Form
from bot.kernel.platform import DataFile
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.kernel.render import Card
from bot.kernel.runtime import EventHandler
from bot.settings import SettingsError

log = logging.getLogger(__name__)

THREAD_NAME_LIMIT = 100
THREAD_ALREADY_EXISTS = 160004
THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440  # a day: the round's life
SHARED_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: a mock-interview pair's
PRIVATE_THREAD: Literal[12] = 12  # Discord's channel type of a private thread
ADMIN_MEMORY_SECONDS = 300.0
STALE_BUTTON = "This button is out of date; use `/quiz reveal` or the newest question."
FORM_TOO_BIG = "This form cannot be opened on Discord; the error was logged."
INTERACTION_LIFETIME_SECONDS = 14 * 60.0  # tokens live 15 minutes


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
    admin_command = ADMIN_COMMAND

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
        self._client = (
            QuizClient(_Router(self), topics, **client_options)
            if shards is None
            else ShardedQuizClient(
                _Router(self),
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
        self._message_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._admins: dict[tuple[str, str], tuple[bool, float]] = {}
        self._interactions: dict[tuple[str, str], discord.Interaction] = {}
        self.reconciler = Reconciler(self._client, self._channels, vote_emoji=options.vote_emoji)

    @property
    def client(self) -> discord.Client:
        return self._client

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

    # gateway life cycle (called by the router)

    async def _on_ready(self) -> None:
        """READY may come many times (new sessions); every one can follow missed events."""
        self._connected = True
        self._ready.set()
        self.request_reconcile()

    async def _on_resumed(self) -> None:
        self._connected = True
        self.request_reconcile()

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
        return await self.reconcile(self._deliver, rounds)

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
        count = message_count(card)
        groups = render_card(card, [marker_for_key(key, part) for part in range(count)])
        # A retry skips the parts recorded as posted (after a restart too). A part posted
        # but not recorded is sent again with the same nonce, and Discord (enforce_nonce)
        # answers with the message it already has for a few minutes.
        posted = (
            (await self._store.unfinished_cards.unfinished_card(key) or []) if count > 1 else []
        )
        if count > 1 and not posted:
            await self._store.unfinished_cards.begin_card(key)
        for part, embeds in enumerate(groups):
            if part < len(posted):
                continue
            view = view_for(card.buttons) if part == 0 else None
            files = attachments(card, part)
            content, mentions = role_ping(card) if part == 0 else (None, NO_MENTIONS)
            with platform_errors(where):
                if view is None:
                    sent = await target.send(
                        content,
                        embeds=embeds,
                        files=files,
                        nonce=nonce_for_key(key, part),
                        allowed_mentions=mentions,
                    )
                else:
                    sent = await target.send(
                        content,
                        embeds=embeds,
                        files=files,
                        view=view,
                        nonce=nonce_for_key(key, part),
                        allowed_mentions=mentions,
                    )
            if count > 1:
                await self._store.unfinished_cards.record_card_part(key, str(sent.id))
            posted.append(str(sent.id))
        if count > 1:
            await self._store.unfinished_cards.finish_card(key)
        if not posted:
            raise PlatformError(f"{where}: the card rendered to no message")
        return posted[0]

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
            found = await self._opened_thread(channel, name) if again else None
            if found is None:
                data = await self._client.http.start_thread_without_message(
                    int(channel.channel_id),
                    name=name,
                    auto_archive_duration=SHARED_ARCHIVE_MINUTES,
                    type=PRIVATE_THREAD,
                    invitable=False,
                )
                found = int(data["id"])
            thread_id = found
            for member in members:  # adding a member twice changes nothing
                await self._client.http.add_user_to_thread(thread_id, int(member.member_id))
        return channel_ref(int(channel.workspace) or None, thread_id, name)

    async def _opened_thread(self, channel: ChannelRef, name: str) -> int | None:
        """The bot's active private thread ``name`` of ``channel``, opened by an earlier
        attempt whose end was lost (a member could not be added, the process died)."""
        me = self._client.user
        if me is None or not channel.workspace.isdigit():
            return None
        listed = await self._client.http.get_active_threads(int(channel.workspace))
        for thread in listed.get("threads", []):
            if (
                str(thread.get("parent_id")) == channel.channel_id
                and thread.get("type") == PRIVATE_THREAD
                and str(thread.get("owner_id")) == str(me.id)
                and thread.get("name") == name
            ):
                return int(thread["id"])
        return None

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
        interaction = self._interactions.get((member.workspace, member.member_id))
        if interaction is not None and not interaction.is_expired():
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

    async def is_admin(self, member: MemberRef, channel: ChannelRef) -> bool:
        """A member with Manage Server (or Administrator) in the channel's guild."""
        remembered = self._admins.get((member.workspace, member.member_id))
        if remembered is not None and time.monotonic() - remembered[1] < ADMIN_MEMORY_SECONDS:
            return remembered[0]
        with platform_errors(f"checking the permissions of {member.label()}"):
            guild = self._client.get_guild(int(member.workspace))
            if guild is None:
                guild = await self._client.fetch_guild(int(member.workspace))
            found = await guild.fetch_member(int(member.member_id))
            allowed = found.guild_permissions.manage_guild
        self._admins[(member.workspace, member.member_id)] = (allowed, time.monotonic())
        return allowed

    # inbound (called by the router)

    async def _deliver(self, event: Event) -> None:
        """An answer, edit or reaction to the core; kept and retried if not recorded."""
        if self._pending is None:
            raise RuntimeError("the Discord platform is not started")
        await self._pending.deliver(event)

    def _message_lock(self, message_id: int) -> asyncio.Lock:
        lock = self._message_locks.get(message_id)
        if lock is None:
            lock = asyncio.Lock()
            self._message_locks[message_id] = lock
        return lock

    def _is_me(self, user_id: int) -> bool:
        return self._client.user is not None and self._client.user.id == user_id

    async def _on_reaction(self, payload: discord.RawReactionActionEvent) -> None:
        if self._handler is None or self._is_me(payload.user_id) or payload.guild_id is None:
            return
        if not _well_formed_reaction(payload):
            log.debug("ignored a malformed reaction on message %s", payload.message_id)
            return
        try:
            quiz_channel = await self._channels.quiz_channel_of(payload.channel_id)
        except PlatformError as problem:
            log.warning("dropped a reaction on message %d: %s", payload.message_id, problem)
            return
        if quiz_channel is None:
            return
        is_bot = payload.member.bot if payload.member is not None else False
        await self._deliver(reaction_event(payload, quiz_channel, is_bot=is_bot))

    async def _on_message(self, message: discord.Message, *, edited: bool = False) -> None:
        # Taken before any await: gateway events start in arrival order, so an edit
        # never overtakes the message it edits.
        async with self._message_lock(message.id):
            if self._handler is None or self._is_me(message.author.id):
                return
            if isinstance(message.channel, discord.DMChannel):
                if not edited and _well_formed_message(message):
                    await self._deliver(direct_event(message))
                return
            if message.guild is None and getattr(message.channel, "guild_id", None) is None:
                return
            if message.type not in (discord.MessageType.default, discord.MessageType.reply):
                return
            if not _well_formed_message(message):
                log.debug("ignored a malformed message %s", message.id)
                return
            if isinstance(message.channel, discord.TextChannel):
                return  # not in a thread: not an answer
            try:
                parent = await self._channels.parent_of(message.channel.id)
            except PlatformError as problem:
                log.warning("dropped message %d: %s", message.id, problem)
                return
            if parent is None:
                return
            await self._deliver(reply_event(message, parent, edited=edited))

    # interactions (called by the router)

    async def _interaction_refs(
        self, interaction: discord.Interaction
    ) -> tuple[ChannelRef, MemberRef]:
        guild_id = interaction.guild_id
        channel_id = interaction.channel_id or 0
        parent = await self._channels.parent_of(channel_id)
        quiz_channel_id = parent or channel_id
        cached = self._client.get_channel(quiz_channel_id)
        name = getattr(cached, "name", "") or ""
        user = interaction.user
        return (
            channel_ref(guild_id, quiz_channel_id, name),
            member_ref(guild_id, user.id, user.display_name),
        )

    def _remember(self, interaction: discord.Interaction, member: MemberRef) -> None:
        key = (member.workspace, member.member_id)
        self._admins[key] = (interaction.permissions.manage_guild, time.monotonic())
        self._interactions[key] = interaction
        now = time.monotonic()
        if len(self._admins) > 1024:
            self._admins = {
                k: v for k, v in self._admins.items() if now - v[1] < ADMIN_MEMORY_SECONDS
            }
        if len(self._interactions) > 1024:
            self._interactions = {k: v for k, v in self._interactions.items() if not v.is_expired()}

    async def _on_command(
        self, interaction: discord.Interaction, name: str, args: tuple[str, ...]
    ) -> None:
        channel, member = await self._interaction_refs(interaction)
        self._remember(interaction, member)  # is_admin answers from its permissions
        direct = interaction.guild_id is None  # the bot's DM (or a group DM): no guild
        event = Command(str(interaction.id), channel, member, name, args, direct=direct)
        await self._answer(interaction, event, f"/quiz {name}")

    async def _on_button(self, interaction: discord.Interaction, action: str, value: str) -> None:
        if not valid_button_value(value):
            log.info("a %s button carried a malformed value; told the member", action)
            with unless_gone(f"the {action} button"):
                await tell_interaction(interaction, cards.error(STALE_BUTTON))
            return
        channel, member = await self._interaction_refs(interaction)
        self._remember(interaction, member)
        message_id = interaction.message.id if interaction.message is not None else 0
        message = MessageRef(
            channel_ref(interaction.guild_id, interaction.channel_id or 0), str(message_id)
        )
        event = ButtonPress(str(interaction.id), channel, message, member, action, value)
        await self._answer(interaction, event, f"the {action} button")

    async def _on_form(self, interaction: discord.Interaction) -> None:
        """A submitted form, routed by its custom id alone (after a restart too); one that
        cannot be routed is answered with what the member typed, never dropped."""
        data: Mapping[str, Any] = cast(Mapping[str, Any], interaction.data or {})
        values = submitted_values(data.get("components"))
        route = form_route(data.get("custom_id"))
        if route is None or route.member not in (None, interaction.user.id):
            log.info(
                "a form submission that cannot be routed (%.100r); told the member what they typed",
                data.get("custom_id"),
            )
            with unless_gone("answering a form that cannot be routed"):
                await tell_interaction(interaction, expired_form(values))
            return
        channel, member = await self._interaction_refs(interaction)
        self._remember(interaction, member)
        event = FormSubmit(str(interaction.id), channel, member, route.kind, route.target, values)
        await self._answer(interaction, event, f"the {route.kind} form")

    async def _answer(self, interaction: discord.Interaction, event: Event, what: str) -> None:
        # A modal must be an interaction's first response: what may open a form is not
        # deferred, the core is asked first (it answers well within Discord's 3 seconds).
        first = isinstance(event, Command | ButtonPress) and may_open_form(event)
        with unless_gone(f"answering {what}"):
            if not first:
                await defer(interaction)
            handler = self._require_handler()
            try:
                response = await handler(event)
            except Exception:
                # Shown to the member and logged with its traceback; re-raising would only
                # make discord.py answer the interaction a second time.
                log.exception("handling %s failed", what)
                await tell_interaction(
                    interaction, cards.error(f"Handling {what} failed; the error was logged.")
                )
                return
            if first and response is not None and response.form is not None:
                await self._open_form(interaction, response.form)
            elif first and response is not None and not response.public:
                await tell_interaction(interaction, response.card)
            else:
                await defer(interaction)  # nothing sent yet when it was answered first
                await deliver(interaction, response)

    async def _open_form(self, interaction: discord.Interaction, form: Form) -> None:
        try:
            modal = FormModal(form, interaction.user.id)
        except ValueError as problem:
            log.error("cannot open a form on Discord: %s", problem)
            await tell_interaction(interaction, cards.error(FORM_TOO_BIG))
            return
        await interaction.response.send_modal(modal)


class _Router(InboundRouter):
    """Forwards the client's gateway callbacks to the platform."""

    def __init__(self, platform: DiscordPlatform) -> None:
        self._platform = platform

    async def ready(self) -> None:
        await self._platform._on_ready()

    async def resumed(self) -> None:
        await self._platform._on_resumed()

    def disconnected(self) -> None:
        self._platform._connected = False

    async def reaction_added(self, payload: discord.RawReactionActionEvent) -> None:
        await self._platform._on_reaction(payload)

    async def message_created(self, message: discord.Message) -> None:
        await self._platform._on_message(message)

    async def message_edited(self, payload: discord.RawMessageUpdateEvent) -> None:
        if payload.message.edited_at is None:
            return  # an embed unfurl or pin, not an edit by the member
        await self._platform._on_message(payload.message, edited=True)

    async def card_button(self, interaction: discord.Interaction, action: str, value: str) -> None:
        await self._platform._on_button(interaction, action, value)

    async def command(
        self, interaction: discord.Interaction, name: str, args: tuple[str, ...]
    ) -> None:
        await self._platform._on_command(interaction, name, args)

    async def form_submitted(self, interaction: discord.Interaction) -> None:
        await self._platform._on_form(interaction)


def _well_formed_message(message: discord.Message) -> bool:
    return (
        is_snowflake(message.id)
        and is_snowflake(message.author.id)
        and is_snowflake(message.channel.id)
        and isinstance(message.content, str)
    )


def _well_formed_reaction(payload: discord.RawReactionActionEvent) -> bool:
    emoji = payload.emoji
    return (
        is_snowflake(payload.user_id)
        and is_snowflake(payload.message_id)
        and is_snowflake(payload.channel_id)
        and bool(emoji.name or emoji.id)
    )


def _log_failure(task: asyncio.Task[int]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.error("reconciling open Discord rounds failed", exc_info=error)
    else:
        log.info("reconciled open Discord rounds: %d event(s) fed", task.result())


def create_discord_platform(
    settings: DiscordSettings,
    *,
    topics: Callable[[], Sequence[str]],
    store: DiscordStore,
    vote_emoji: str = "👍",
) -> DiscordPlatform:
    """The Discord platform from settings (``QUIZBOT_DISCORD_*``)."""
    require(settings, "discord_token")
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    if not token.strip():
        raise SettingsError("QUIZBOT_DISCORD_TOKEN is empty")
    if settings.discord_api_url:
        check_api_url(settings.discord_api_url)
    shards = shard_plan(settings.discord_shards, settings.discord_shard_count)
    rate = paced_rate(settings.discord_requests_per_second, shards)
    if shards is not None:
        log.info("running Discord %s, paced at %.1f REST requests/s", shards.describe(), rate)
    options = DiscordOptions(
        token=token,
        api_url=settings.discord_api_url,
        dev_guild=settings.discord_dev_guild,
        vote_emoji=vote_emoji,
        requests_per_second=rate,
        shards=shards,
    )
    return DiscordPlatform(options, topics=topics, store=store)
