"""``/quiz answer [TEXT]``: a member's private answer in a blind channel (see
:mod:`bot.blind.answers`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.blind.answers import BlindAnswers
from bot.feature import Listed
from bot.kernel.render import Response
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Param, ParamKind, Subcommand
from bot.quiz_command.typed import QuizCommand


@dataclass(frozen=True, slots=True)
class AnswerRound(QuizCommand):
    """A member's blind answer to the open round (empty: open the answer form)."""

    text: str = ""


class BlindCommands:
    """The handler of ``/quiz answer``."""

    def __init__(self, blind: BlindAnswers) -> None:
        self._blind = blind

    async def answer(self, ctx: CommandContext, command: AnswerRound) -> Response:
        event = ctx.event
        if not command.text.strip():
            return await self._blind.form(event.channel, event.member, None)
        return await self._blind.answer(event.channel, event.member, command.text, event.event_id)


ANSWER = Subcommand(
    "answer",
    "in a blind channel, answer privately until the reveal (without TEXT: a form)",
    "/quiz answer shard the KV cache by attention head",
    params=(
        Param(
            "text",
            ParamKind.TEXT,
            "Your answer; without it a form opens",
            metavar="TEXT",
            label="answer",
        ),
    ),
    build=lambda a: AnswerRound(text=str(a.get("text", ""))),
    handler=BlindCommands.answer,
)


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (Listed(90, ANSWER),)
