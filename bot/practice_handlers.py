"""``/quiz practice [TOPIC]`` and ``/quiz practice stop``: private practice in the DMs."""

from __future__ import annotations

from bot.command_handlers import CommandContext
from bot.commands import StartPractice, StopPractice
from bot.errors import Refused
from bot.practice_sessions import NO_DIRECT_MESSAGES
from bot.render import Response


async def practice(ctx: CommandContext, command: StartPractice | StopPractice) -> Response:
    if isinstance(command, StopPractice):
        return await ctx.practice.stop(ctx.event.member)
    if ctx.platform is None:
        raise Refused(NO_DIRECT_MESSAGES)
    return await ctx.practice.start(ctx.platform, ctx.event.member, command.topic)
