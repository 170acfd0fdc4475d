"""Handler of ``/quiz answer`` (blind mode, see :mod:`bot.blind.answers`)."""

from __future__ import annotations

from bot.blind.answers import BlindAnswers
from bot.commands.handlers import CommandContext
from bot.commands.typed import AnswerRound
from bot.kernel.render import Response


async def answer(ctx: CommandContext, command: AnswerRound) -> Response:
    blind = BlindAnswers(ctx.engine)
    event = ctx.event
    if not command.text.strip():
        return await blind.form(event.channel, event.member, None)
    return await blind.answer(event.channel, event.member, command.text, event.event_id)
