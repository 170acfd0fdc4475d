"""Carries out ``/quiz`` commands: the channel's quiz, then the subcommand's handler."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Protocol

from bot.kernel.cards import info
from bot.kernel.errors import BadArgument
from bot.kernel.events import Command
from bot.kernel.log_context import about
from bot.kernel.models import ChannelSettings
from bot.kernel.platform import CommandPaths, Platform
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Response
from bot.quiz_command.context import NO_QUIZ_YET, CommandContext
from bot.quiz_command.grammar import Subcommand
from bot.quiz_command.registry import CommandRegistry, Invocation
from bot.quiz_command.typed import Help, QuizCommand

log = logging.getLogger(__name__)
BoundHandler = Callable[[CommandContext, QuizCommand], Awaitable[Response | None]]


class QuizChannels(Protocol):
    """The channels' quiz settings as the runner finds or creates them (the engine)."""

    async def channel(self, ref: ChannelRef) -> ChannelSettings | None: ...

    def cached_channel(self, ref: ChannelRef) -> ChannelSettings | None: ...

    async def stored_channel(self, ref: ChannelRef) -> ChannelSettings | None: ...

    async def create_channel(self, ref: ChannelRef) -> ChannelSettings: ...

    async def save_channel(
        self, before: ChannelSettings, after: ChannelSettings
    ) -> ChannelSettings: ...


def bind(subcommands: Sequence[Subcommand], handlers: Sequence[object]) -> dict[str, BoundHandler]:
    """Each subcommand's handler on the object of its feature that holds it: a subcommand
    declares ``PracticeCommands.practice``, the service built a ``PracticeCommands``."""
    bound: dict[str, BoundHandler] = {}
    for subcommand in subcommands:
        method = subcommand.handler
        owner = next((h for h in handlers if vars(type(h)).get(method.__name__) is method), None)
        if owner is None:
            raise LookupError(
                f"/quiz {subcommand.name}: no handlers given for {method.__qualname__}"
            )
        bound[subcommand.name] = getattr(owner, method.__name__)
    return bound


class CommandRunner:
    """Runs one ``/quiz`` invocation through the steps every subcommand shares."""

    def __init__(
        self,
        registry: CommandRegistry,
        channels: QuizChannels,
        rescheduled: Callable[[ChannelSettings], None],
        handlers: Sequence[object],
        platforms: Mapping[str, Platform] | None = None,
    ) -> None:
        self._channels = channels
        self._rescheduled = rescheduled
        self._registry = registry
        self._handlers = bind(registry.subcommands, handlers)
        self._platforms = platforms if platforms is not None else {}
        # Admin commands of one channel run one at a time: each decides its change from
        # the settings it read (two `/quiz topics enable` at once would each add to the
        # list it read), and an admin's first two commands would both create the channel.
        self._channel_locks: weakref.WeakValueDictionary[tuple[str, str, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    async def run(self, event: Command, invocation: Invocation | None = None) -> Response | None:
        """Run an invocation the inbound chain let through (a member's admin command is
        refused there), as it parsed it; a bad argument raises CommandError."""
        if invocation is None:
            invocation = self._registry.parse_invocation(event.name, event.args, event.text)
        command = invocation.command
        subcommand = invocation.subcommand
        if isinstance(command, Help):  # help, or an unknown subcommand: anywhere, no quiz
            return await self._handle(subcommand, command, event, None)
        if invocation.admin:
            ref = event.channel
            key = (ref.platform, ref.workspace, ref.channel_id)
            async with self._channel_locks.setdefault(key, asyncio.Lock()):
                channel = await self._admin_channel(event)
                return await self._handle(subcommand, command, event, channel)
        if event.direct:  # direct messages are never a quiz channel
            return await self._handle(subcommand, command, event, None)
        found = await self._channels.channel(event.channel)
        if found is None and subcommand.needs_channel:
            return Response(info("No quiz here yet", NO_QUIZ_YET))
        return await self._handle(subcommand, command, event, found)

    async def _handle(
        self,
        subcommand: Subcommand,
        command: QuizCommand,
        event: Command,
        channel: ChannelSettings | None,
    ) -> Response | None:
        platform = self._platforms.get(event.channel.platform)
        usages = self._registry.direct_help_lines if event.direct else self._registry.help_lines
        if isinstance(platform, CommandPaths):
            paths = tuple(platform.command_paths.items())
            usages = self._registry.help_lines_on(paths, event.direct)
        context = CommandContext(event, channel, usages, platform)
        try:
            return await self._handlers[subcommand.name](context, command)
        except BadArgument as bad:
            raise subcommand.problem(str(bad)) from None

    async def _admin_channel(self, event: Command) -> ChannelSettings:
        """The channel's quiz, created by an admin's first command, enabled again if it was
        disabled (a command arriving from the channel shows the bot can reach it again).

        Read from the store, not the cache: what the command shows and decides is the
        settings as they are now, whatever another replica changed since they were cached."""
        cached = self._channels.cached_channel(event.channel)
        channel = await self._channels.stored_channel(event.channel)
        if channel is not None and channel != cached:
            self._rescheduled(channel)
        if channel is None:
            channel = await self._channels.create_channel(event.channel)
            self._rescheduled(channel)
        elif channel.disabled_reason:
            log.info("channel enabled again by an admin", extra=about(channel.ref))
            channel = await self._channels.save_channel(
                channel, dataclasses.replace(channel, disabled_reason=None)
            )
            self._rescheduled(channel)
        return channel
