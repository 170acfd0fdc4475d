"""``/quiz practice [TOPIC]`` and ``/quiz practice stop``: private practice in the DMs."""

from __future__ import annotations

from dataclasses import dataclass

from bot.commands.context import CommandContext
from bot.commands.grammar import Arguments, Param, ParamKind, Subcommand, Suggest
from bot.commands.typed import QuizCommand
from bot.kernel.errors import Refused
from bot.kernel.render import Response
from bot.practice.sessions import NO_DIRECT_MESSAGES, PracticeSessions

PRACTICE_STOP = "stop"


@dataclass(frozen=True, slots=True)
class StartPractice(QuizCommand):
    """``/quiz practice [TOPIC]``: start private practice in the member's DMs."""

    topic: str | None  # None: any topic


@dataclass(frozen=True, slots=True)
class StopPractice(QuizCommand):
    """``/quiz practice stop``: end the member's practice session."""


class PracticeCommands:
    """The handlers of the practice feature's subcommands."""

    def __init__(self, sessions: PracticeSessions) -> None:
        self._sessions = sessions

    async def practice(
        self, ctx: CommandContext, command: StartPractice | StopPractice
    ) -> Response:
        if isinstance(command, StopPractice):
            return await self._sessions.stop(ctx.event.member)
        if ctx.platform is None:
            raise Refused(NO_DIRECT_MESSAGES)
        return await self._sessions.start(ctx.platform, ctx.event.member, command.topic)


def practice_command(arguments: Arguments) -> StartPractice | StopPractice:
    topic = arguments.get("topic")
    if topic is None:
        return StartPractice(None)
    if str(topic).lower() == PRACTICE_STOP:
        return StopPractice()
    return StartPractice(str(topic).lower())


PRACTICE = Subcommand(
    "practice",
    "practise alone in your direct messages, like an interview; stop ends it",
    "/quiz practice attention",
    params=(
        Param(
            "topic",
            ParamKind.WORD,
            "Only from this topic, or stop",
            metavar="TOPIC",
            alone=PRACTICE_STOP,
            label="topic",
            suggest=Suggest.TOPICS,
        ),
    ),
    build=practice_command,
    handler=PracticeCommands.practice,
    needs_channel=False,
    in_direct=True,
)
