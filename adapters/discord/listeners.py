"""What the discord.py client hands over from the gateway (its :class:`InboundRouter`), turned
into the core's events: reactions, thread replies and direct messages go to the platform's
retrying delivery; slash commands, buttons and forms are handled at once and answered on
their interaction."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Mapping
from typing import Any, Protocol, cast

import discord

from adapters.discord.buttons import valid_button_value
from adapters.discord.client import InboundRouter
from adapters.discord.forms import FormModal, expired_form, form_route, submitted_values
from adapters.discord.inbound import (
    ChannelResolver,
    channel_ref,
    direct_event,
    is_snowflake,
    member_ref,
    reaction_event,
    reply_event,
)
from adapters.discord.recent import RecentInteractions
from adapters.discord.responses import defer, deliver, unless_gone
from adapters.discord.responses import tell as tell_interaction
from bot.features import may_open_form
from bot.kernel import cards
from bot.kernel.errors import PlatformError
from bot.kernel.events import ButtonPress, Command, Event, FormSubmit
from bot.kernel.forms import Form
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef
from bot.kernel.runtime import EventHandler

log = logging.getLogger(__name__)

STALE_BUTTON = "This button is out of date; use `/quiz reveal` or the newest question."
FORM_TOO_BIG = "This form cannot be opened on Discord; the error was logged."


class ListenedPlatform(Protocol):
    """What the listeners need of the platform: its client and channels, its life cycle,
    and where events go."""

    @property
    def client(self) -> discord.Client: ...

    @property
    def channels(self) -> ChannelResolver: ...

    @property
    def handler(self) -> EventHandler | None: ...  # None until started

    async def deliver(self, event: Event) -> None: ...

    async def gateway_ready(self) -> None: ...

    async def gateway_resumed(self) -> None: ...

    def gateway_disconnected(self) -> None: ...


class DiscordListeners(InboundRouter):
    """The client's gateway happenings, as the core's events."""

    def __init__(self, platform: ListenedPlatform, recent: RecentInteractions) -> None:
        self._platform = platform
        self._recent = recent
        self._message_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    # the gateway's life cycle

    async def ready(self) -> None:
        await self._platform.gateway_ready()

    async def resumed(self) -> None:
        await self._platform.gateway_resumed()

    def disconnected(self) -> None:
        self._platform.gateway_disconnected()

    # answers, edits, reactions and direct messages

    def _message_lock(self, message_id: int) -> asyncio.Lock:
        lock = self._message_locks.get(message_id)
        if lock is None:
            lock = asyncio.Lock()
            self._message_locks[message_id] = lock
        return lock

    def _is_me(self, user_id: int) -> bool:
        me = self._platform.client.user
        return me is not None and me.id == user_id

    async def reaction_added(self, payload: discord.RawReactionActionEvent) -> None:
        if self._platform.handler is None or self._is_me(payload.user_id):
            return
        if payload.guild_id is None:
            return
        if not _well_formed_reaction(payload):
            log.debug("ignored a malformed reaction on message %s", payload.message_id)
            return
        try:
            quiz_channel = await self._platform.channels.quiz_channel_of(payload.channel_id)
        except PlatformError as problem:
            log.warning("dropped a reaction on message %d: %s", payload.message_id, problem)
            return
        if quiz_channel is None:
            return
        is_bot = payload.member.bot if payload.member is not None else False
        await self._platform.deliver(reaction_event(payload, quiz_channel, is_bot=is_bot))

    async def message_created(self, message: discord.Message) -> None:
        await self._on_message(message)

    async def message_edited(self, payload: discord.RawMessageUpdateEvent) -> None:
        if payload.message.edited_at is None:
            return  # an embed unfurl or pin, not an edit by the member
        await self._on_message(payload.message, edited=True)

    async def _on_message(self, message: discord.Message, *, edited: bool = False) -> None:
        # Taken before any await: gateway events start in arrival order, so an edit
        # never overtakes the message it edits.
        async with self._message_lock(message.id):
            if self._platform.handler is None or self._is_me(message.author.id):
                return
            if isinstance(message.channel, discord.DMChannel):
                if not edited and _well_formed_message(message):
                    await self._platform.deliver(direct_event(message))
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
                parent = await self._platform.channels.parent_of(message.channel.id)
            except PlatformError as problem:
                log.warning("dropped message %d: %s", message.id, problem)
                return
            if parent is None:
                return
            await self._platform.deliver(reply_event(message, parent, edited=edited))

    # interactions: commands, buttons, forms

    async def _interaction_refs(
        self, interaction: discord.Interaction
    ) -> tuple[ChannelRef, MemberRef]:
        guild_id = interaction.guild_id
        channel_id = interaction.channel_id or 0
        parent = await self._platform.channels.parent_of(channel_id)
        quiz_channel_id = parent or channel_id
        cached = self._platform.client.get_channel(quiz_channel_id)
        name = getattr(cached, "name", "") or ""
        user = interaction.user
        channel = channel_ref(guild_id, quiz_channel_id, name)
        member = member_ref(guild_id, user.id, user.display_name)
        self._recent.remember(interaction, member)  # is_admin answers from its permissions
        return channel, member

    async def command(
        self, interaction: discord.Interaction, name: str, args: tuple[str, ...]
    ) -> None:
        channel, member = await self._interaction_refs(interaction)
        direct = interaction.guild_id is None  # the bot's DM (or a group DM): no guild
        event = Command(str(interaction.id), channel, member, name, args, direct=direct)
        await self._answer(interaction, event, f"/quiz {name}")

    async def card_button(self, interaction: discord.Interaction, action: str, value: str) -> None:
        if not valid_button_value(value):
            log.info("a %s button carried a malformed value; told the member", action)
            with unless_gone(f"the {action} button"):
                await tell_interaction(interaction, cards.error(STALE_BUTTON))
            return
        channel, member = await self._interaction_refs(interaction)
        message_id = interaction.message.id if interaction.message is not None else 0
        message = MessageRef(
            channel_ref(interaction.guild_id, interaction.channel_id or 0), str(message_id)
        )
        event = ButtonPress(str(interaction.id), channel, message, member, action, value)
        await self._answer(interaction, event, f"the {action} button")

    async def form_submitted(self, interaction: discord.Interaction) -> None:
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
        event = FormSubmit(str(interaction.id), channel, member, route.kind, route.target, values)
        await self._answer(interaction, event, f"the {route.kind} form")

    async def _answer(self, interaction: discord.Interaction, event: Event, what: str) -> None:
        # A modal must be an interaction's first response: what may open a form is not
        # deferred, the core is asked first (it answers well within Discord's 3 seconds).
        first = isinstance(event, Command | ButtonPress) and may_open_form(event)
        with unless_gone(f"answering {what}"):
            if not first:
                await defer(interaction)
            handler = self._platform.handler
            if handler is None:
                raise RuntimeError("the Discord platform is not started")
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
