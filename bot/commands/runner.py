"""Carries out ``/quiz`` commands: parsing, the channel's quiz, then the handler."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import weakref
from collections.abc import Mapping

from bot.commands.grammar import Subcommand
from bot.commands.handlers import NO_QUIZ_YET, CommandContext, ScheduleBook
from bot.commands.registry import COMMANDS_BY_NAME, QUIZ_COMMANDS, find_subcommand, parse_command
from bot.commands.typed import Help, QuizCommand
from bot.kernel.errors import BadArgument
from bot.kernel.events import Command
from bot.kernel.log_context import about
from bot.kernel.models import ChannelSettings
from bot.kernel.platform import Platform
from bot.kernel.render import Response
from bot.rounds import cards
from bot.rounds.engine import QuizEngine

log = logging.getLogger(__name__)
HELP_LINES = tuple((c.form(), c.summary, c.admin) for c in QUIZ_COMMANDS)


class CommandRunner:
    """Runs one ``/quiz`` invocation through the steps every subcommand shares."""

    def __init__(
        self,
        engine: QuizEngine,
        schedules: ScheduleBook,
        platforms: Mapping[str, Platform] | None = None,
    ) -> None:
        self._engine = engine
        self._schedules = schedules
        self._platforms = platforms if platforms is not None else {}
        # Admin commands of one channel run one at a time: each reads the channel's
        # settings, changes one and saves them all, so two at once would undo each
        # other (and an admin's first two commands would both create the channel).
        self._channel_locks: weakref.WeakValueDictionary[tuple[str, str, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    async def run(self, event: Command) -> Response:
        """Run an invocation the inbound chain let through (a member's admin command is
        refused there); a bad argument raises CommandError."""
        subcommand = find_subcommand(event.name)
        admin = subcommand is not None and subcommand.needs_admin(event.args)
        command = parse_command(event.name, event.args, event.text)
        if isinstance(command, Help) or subcommand is None:
            subcommand = COMMANDS_BY_NAME["help"]
            channel = None
        elif admin:
            ref = event.channel
            key = (ref.platform, ref.workspace, ref.channel_id)
            async with self._channel_locks.setdefault(key, asyncio.Lock()):
                channel = await self._admin_channel(event)
                return await self._handle(subcommand, command, event, channel)
        elif event.direct:
            channel = None  # direct messages are never a quiz channel
        else:
            channel = await self._engine.channel(event.channel)
            if channel is None and subcommand.needs_channel:
                return Response(cards.info("No quiz here yet", NO_QUIZ_YET))
        return await self._handle(subcommand, command, event, channel)

    async def _handle(
        self,
        subcommand: Subcommand,
        command: QuizCommand,
        event: Command,
        channel: ChannelSettings | None,
    ) -> Response:
        context = CommandContext(
            self._engine,
            self._schedules,
            event,
            channel,
            HELP_LINES,
            self._platforms.get(event.channel.platform),
        )
        try:
            return await subcommand.handler(context, command)
        except BadArgument as bad:
            raise subcommand.problem(str(bad)) from None

    async def _admin_channel(self, event: Command) -> ChannelSettings:
        """The channel's quiz, created by an admin's first command, enabled again if it was
        disabled (a command arriving from the channel shows the bot can reach it again).

        Read from the store, not the cache: the command saves all the settings, so what
        another replica changed since they were cached here would be undone."""
        cached = self._engine.cached_channel(event.channel)
        channel = await self._engine.stored_channel(event.channel)
        if channel is not None and channel != cached:
            self._schedules.channel_changed(channel)
        if channel is None:
            channel = await self._engine.create_channel(event.channel)
            self._schedules.channel_changed(channel)
        elif channel.disabled_reason:
            log.info("channel enabled again by an admin", extra=about(channel.ref))
            channel = dataclasses.replace(channel, disabled_reason=None)
            await self._engine.save_channel(channel)
            self._schedules.channel_changed(channel)
        return channel
