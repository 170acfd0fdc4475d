"""Handler of ``/quiz answer`` (blind mode, see :mod:`bot.blind_answers`)."""

from __future__ import annotations

from bot.blind_answers import BlindAnswers
from bot.command_handlers import CommandContext
from bot.commands import AnswerRound
from bot.render import Response


async def answer(ctx: CommandContext, command: AnswerRound) -> Response:
    blind = BlindAnswers(ctx.engine)
    event = ctx.event
    if not command.text.strip():
        return await blind.form(event.channel, event.member, None)
    return await blind.answer(event.channel, event.member, command.text, event.event_id)
