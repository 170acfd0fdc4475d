"""``/quiz practice [timed MINUTES] [TOPIC] [DIFFICULTY]``, ``/quiz practice stop`` and
``/quiz hint``: private practice in the DMs."""

from __future__ import annotations

from dataclasses import dataclass

from bot.feature import Listed
from bot.kernel.cards import info
from bot.kernel.errors import Refused
from bot.kernel.render import Response
from bot.practice.sessions import NO_DIRECT_MESSAGES, PracticeSessions
from bot.practice.timer import LONGEST, SHORTEST
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Arguments, Param, ParamKind, Subcommand, Suggest
from bot.quiz_command.typed import QuizCommand
from questions.pack import Difficulty

PRACTICE_STOP = "stop"
TIMED = "timed"
ANY_DIFFICULTY = "any"
DIFFICULTY_WORDS = (*(d.value for d in Difficulty), ANY_DIFFICULTY)


@dataclass(frozen=True, slots=True)
class StartPractice(QuizCommand):
    """``/quiz practice [timed MINUTES] [TOPIC] [DIFFICULTY]``: start private practice in
    the member's DMs."""

    topic: str | None  # None: any topic
    difficulty: Difficulty | None = None  # None: any difficulty
    time_limit_minutes: int | None = None  # timed: the minutes to answer; None: untimed


@dataclass(frozen=True, slots=True)
class TakeHint(QuizCommand):
    """``/quiz hint``: one more key point of the open practice question."""


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
        return await self._sessions.start(
            ctx.platform,
            ctx.event.member,
            command.topic,
            difficulty=command.difficulty,
            time_limit_minutes=command.time_limit_minutes,
        )

    async def hint(self, ctx: CommandContext, command: TakeHint) -> Response | None:
        if ctx.platform is None:
            raise Refused(NO_DIRECT_MESSAGES)
        if ctx.event.direct:  # a Discord DM names no guild: the DM's session is theirs
            session = await self._sessions.in_direct(ctx.event.channel)
        else:
            session = await self._sessions.current_of(ctx.event.member)
        if session is None:
            raise Refused("No practice session is open: start one with `/quiz practice`.")
        await self._sessions.hint(ctx.platform, session)
        if ctx.event.direct:
            return None  # the hint itself answers, where it was asked
        return Response(info("Hint sent", "The next key point is in your direct messages."))


def is_difficulty(word: str) -> bool:
    return word.lower() in DIFFICULTY_WORDS


def practice_command(arguments: Arguments) -> StartPractice | StopPractice:
    topic = arguments.get("topic")
    level = str(arguments.get("difficulty", ANY_DIFFICULTY))
    difficulty = None if level == ANY_DIFFICULTY else Difficulty(level)
    minutes = arguments.get("minutes")
    limit = int(minutes) if isinstance(minutes, int) else None
    if topic is None:
        return StartPractice(None, difficulty, limit)
    if str(topic).lower() == PRACTICE_STOP:
        return StopPractice()
    return StartPractice(str(topic).lower(), difficulty, limit)


PRACTICE = Subcommand(
    "practice",
    "practise alone in your direct messages, like an interview, of a topic and a"
    " difficulty if given, timed if asked; stop ends it",
    "/quiz practice timed 10 kv-cache hard",
    params=(
        Param(
            TIMED,
            ParamKind.FLAG,
            "Give the question a time limit, as an interview does",
            label="word timed",
            recognize=lambda word: word.lower() == TIMED,
        ),
        Param(
            "minutes",
            ParamKind.NUMBER,
            f"The minutes to answer the question, {SHORTEST} to {LONGEST}, e.g. 10",
            metavar="MINUTES",
            label="minutes",
            needs=TIMED,
            required=True,
            recognize=lambda word: word[:1].isdigit(),
            minimum=SHORTEST,
            maximum=LONGEST,
            integer=True,
            invalid=f"The time limit is whole minutes from {SHORTEST} to {LONGEST}, e.g. 10,"
            " not {value}.",
            missing=f"Give the minutes after timed, {SHORTEST} to {LONGEST}: e.g."
            " `/quiz practice timed 10`.",
        ),
        Param(
            "topic",
            ParamKind.WORD,
            "Only from this topic, or stop",
            metavar="TOPIC",
            alone=PRACTICE_STOP,
            label="topic",
            # a word that is a difficulty is the difficulty: `/quiz practice hard`
            recognize=lambda word: not is_difficulty(word),
            suggest=Suggest.TOPICS,
        ),
        Param(
            "difficulty",
            ParamKind.CHOICE,
            "Only questions of this difficulty, or any",
            choices=DIFFICULTY_WORDS,
            label="difficulty",
            invalid="Unknown difficulty {value}: give easy, medium, hard or any.",
        ),
    ),
    build=practice_command,
    handler=PracticeCommands.practice,
    needs_channel=False,
    in_direct=True,
)

HINT = Subcommand(
    "hint",
    "in private practice, one more key point of the question (the best grade is then good)",
    "/quiz hint",
    build=lambda _: TakeHint(),
    handler=PracticeCommands.hint,
    needs_channel=False,
    in_direct=True,
)


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (
    Listed(70, PRACTICE),
    Listed(80, HINT),
)
