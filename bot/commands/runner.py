"""Carries out ``/quiz`` commands: the channel's quiz, then the subcommand's handler."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Protocol

from bot.commands.context import NO_QUIZ_YET, CommandContext
from bot.commands.grammar import Subcommand
from bot.commands.registry import QUIZ_COMMANDS, Invocation, parse_invocation
from bot.commands.typed import Help, QuizCommand
from bot.kernel.cards import info
from bot.kernel.errors import BadArgument
from bot.kernel.events import Command
from bot.kernel.log_context import about
from bot.kernel.models import ChannelSettings
from bot.kernel.platform import CommandPaths, Platform
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Response

log = logging.getLogger(__name__)
HELP_LINES = tuple(line for c in QUIZ_COMMANDS for line in c.usages())
# In direct messages only what works there, as a member runs it (an admin's use never does).
DIRECT_HELP_LINES = tuple((c.member_form(), c.summary, False) for c in QUIZ_COMMANDS if c.in_direct)
BoundHandler = Callable[[CommandContext, QuizCommand], Awaitable[Response | None]]


@functools.cache
def help_lines_on(
    paths: tuple[tuple[str, str], ...], direct: bool
) -> tuple[tuple[str, str, bool], ...]:
    """The help's lines on a platform that runs some subcommands by other ``paths`` (its
    ``CommandPaths``: Discord's ``/quiz-admin now``, ``/quiz round grade``)."""
    run_as = dict(paths)
    lines = DIRECT_HELP_LINES if direct else HELP_LINES
    return tuple((_run_as(form, run_as), summary, admin) for form, summary, admin in lines)


def _run_as(form: str, run_as: Mapping[str, str]) -> str:
    """``/quiz grade [ROUND]`` as ``/quiz round grade [ROUND]``."""
    name = form.split(" ", 2)[1]
    path = run_as.get(name)
    return form.replace(f"/quiz {name}", path, 1) if path else form


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
        channels: QuizChannels,
        rescheduled: Callable[[ChannelSettings], None],
        handlers: Sequence[object],
        platforms: Mapping[str, Platform] | None = None,
    ) -> None:
        self._channels = channels
        self._rescheduled = rescheduled
        self._handlers = bind(QUIZ_COMMANDS, handlers)
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
            invocation = parse_invocation(event.name, event.args, event.text)
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
        usages = DIRECT_HELP_LINES if event.direct else HELP_LINES
        if isinstance(platform, CommandPaths):
            paths = tuple(platform.command_paths.items())
            usages = help_lines_on(paths, event.direct)
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
