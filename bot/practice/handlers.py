"""``/quiz practice [TOPIC]`` and ``/quiz practice stop``: private practice in the DMs."""

from __future__ import annotations

from bot.commands.handlers import CommandContext
from bot.commands.typed import StartPractice, StopPractice
from bot.kernel.errors import Refused
from bot.kernel.render import Response
from bot.practice.sessions import NO_DIRECT_MESSAGES


async def practice(ctx: CommandContext, command: StartPractice | StopPractice) -> Response:
    if isinstance(command, StopPractice):
        return await ctx.practice.stop(ctx.event.member)
    if ctx.platform is None:
        raise Refused(NO_DIRECT_MESSAGES)
    return await ctx.practice.start(ctx.platform, ctx.event.member, command.topic)
