"""``/quiz now``, ``/quiz reveal``, ``/quiz skip``, ``/quiz leaderboard`` and ``/quiz
stats``: a channel's rounds and what they add up to."""

from __future__ import annotations

from dataclasses import dataclass

from bot.bank.catalog import WorkspaceCatalog, workspace_of
from bot.feature import Listed
from bot.kernel.cards import info
from bot.kernel.clock import Clock
from bot.kernel.errors import Refused, unknown_topic
from bot.kernel.models import ChannelSettings
from bot.kernel.render import Response
from bot.kernel.scoring import Period, period_start
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Param, ParamKind, Subcommand, Suggest
from bot.quiz_command.typed import QuizCommand
from bot.rounds.cards import leaderboard_card, stats_card
from bot.rounds.engine import NoQuestions, QuizEngine
from bot.rounds.stats_sources import CoachSpending, ReadinessView, WeakestTopics
from bot.rounds.store import ReportStore, RoundStore


@dataclass(frozen=True, slots=True)
class ShowLeaderboard(QuizCommand):
    """Show the channel's top members for a period, privately or in the channel."""

    period: Period = Period.WEEK
    public: bool = False


@dataclass(frozen=True, slots=True)
class ShowStats(QuizCommand):
    """Show the channel's totals, privately or in the channel."""

    public: bool = False


@dataclass(frozen=True, slots=True)
class ShowReadiness(QuizCommand):
    """``/quiz stats readiness`` (admin): the members' expected recall on their goal dates."""


@dataclass(frozen=True, slots=True)
class PostNow(QuizCommand):
    """Post a question now, from one topic if given."""

    topic: str | None = None


@dataclass(frozen=True, slots=True)
class RevealNow(QuizCommand):
    """Reveal the latest round's outline now."""


@dataclass(frozen=True, slots=True)
class SkipRound(QuizCommand):
    """Close the open round without revealing it."""


def topic_notes(channel: ChannelSettings, topic: str, *, asked_again: bool) -> list[str]:
    """What an admin who asked for a question of ``topic`` should know about it: that the
    channel has it disabled, that its every question was asked already."""
    notes = []
    if not channel.topics.allows(topic):
        notes.append(
            f"{topic} is disabled in this channel: scheduled questions skip it"
            f" (`/quiz topics enable {topic}` turns it on)."
        )
    if asked_again:
        notes.append(
            f"Every question of {topic} was asked in this channel already, so this one is"
            " asked again."
        )
    return notes


class RoundCommands:
    """The handlers of the rounds' subcommands."""

    def __init__(
        self,
        engine: QuizEngine,
        rounds: RoundStore,
        reports: ReportStore,
        learning: WeakestTopics,
        readiness: ReadinessView | None = None,
        *,
        clock: Clock,
        questions: WorkspaceCatalog,
        coach: CoachSpending | None = None,
    ) -> None:
        self._engine = engine
        self._coach = coach
        self._clock = clock
        self._questions = questions
        self._rounds = rounds
        self._reports = reports
        self._learning = learning
        self._readiness = readiness

    async def show_leaderboard(self, ctx: CommandContext, command: ShowLeaderboard) -> Response:
        channel = ctx.quiz
        since = period_start(command.period, self._clock.now(), channel.timezone)
        rows = await self._reports.leaderboard(channel.id, since, limit=10)
        return Response(leaderboard_card(command.period, rows), public=command.public)

    async def show_stats(self, ctx: CommandContext, command: ShowStats | ShowReadiness) -> Response:
        if isinstance(command, ShowReadiness):  # the lead's view, always private
            if self._readiness is None:
                raise Refused("The readiness view is not available here.")
            now = self._clock.now()
            workspace = workspace_of(ctx.quiz.ref)
            return Response(await self._readiness.card(ctx.event.channel, workspace, now))
        stats = await self._reports.channel_stats(ctx.quiz.id)
        weakest = await self._learning.weakest_topics(
            ctx.quiz.id, self._clock.now(), workspace=workspace_of(ctx.quiz.ref)
        )
        platform, event = ctx.platform, ctx.event
        for_admin = (
            not command.public
            and platform is not None
            and await platform.is_admin(event.member, event.channel)
        )
        coach = agreement = None
        if for_admin and self._coach is not None:
            coach = await self._coach.this_month(ctx.quiz, self._clock.now())
            agreement = await self._coach.agreement(ctx.quiz)
        parameters = await self._learning.memory_parameters(workspace_of(ctx.quiz.ref))
        card = stats_card(
            ctx.quiz,
            stats,
            weakest,
            for_admin=for_admin,
            coach=coach,
            agreement=agreement,
            memory=parameters,
        )
        return Response(card, public=command.public)

    async def post_now(self, ctx: CommandContext, command: PostNow) -> Response:
        engine, topic = self._engine, command.topic
        workspace = workspace_of(ctx.event.channel)
        if topic is not None and topic not in self._questions.topics(workspace):
            await engine.read_bank(workspace)  # approved a moment ago?
            if topic not in self._questions.topics(workspace):
                raise unknown_topic(topic, self._questions.topics(workspace))
        repeated: list[bool] = []
        try:
            round_ = await engine.start_round(
                ctx.quiz,
                scheduled_for=self._clock.now(),
                scheduled=False,
                topic=topic,
                asked_again=repeated.append,
            )
        except NoQuestions as none:
            raise Refused(str(none)) from None
        if round_ is None:
            return Response(info("A question was just posted."))
        notes = [f"Posting question #{round_.number}."]
        if topic is not None:
            notes += topic_notes(ctx.quiz, topic, asked_again=bool(repeated and repeated[-1]))
        return Response(info(" ".join(notes)))

    async def reveal_now(self, ctx: CommandContext, command: RevealNow) -> Response:
        round_ = await self._rounds.latest_round(ctx.quiz.id)
        if round_ is None:
            raise Refused("There is no round to reveal yet.")
        if self._engine.was_skipped(round_):
            raise Refused(
                f"There is no open round to reveal: question #{round_.number} was closed with"
                " `/quiz skip`, and its outline stays unposted. Post a new one with `/quiz now`."
            )
        if not await self._engine.reveal(ctx.quiz, round_):
            return Response(info(f"Question #{round_.number} is already revealed."))
        return Response(info(f"Revealing the outline of question #{round_.number}."))

    async def skip_round(self, ctx: CommandContext, command: SkipRound) -> Response:
        skipped = await self._engine.skip(ctx.quiz)
        if skipped is None:
            return Response(info("No round is open."))
        return Response(info(f"Question #{skipped.number} is closed."), public=True)


PUBLIC = Param("public", ParamKind.FLAG, "Post it in the channel")

LEADERBOARD = Subcommand(
    "leaderboard",
    "top members of this channel, with their points for quality, and how points are earned",
    "/quiz leaderboard week",
    params=(
        Param(
            "period",
            ParamKind.CHOICE,
            "Which answers count",
            choices=tuple(p.value for p in Period),
        ),
        PUBLIC,
    ),
    build=lambda a: ShowLeaderboard(
        period=Period(str(a.get("period", Period.WEEK))), public=bool(a.get("public"))
    ),
    handler=RoundCommands.show_leaderboard,
)

STATS = Subcommand(
    "stats",
    "this channel's totals; readiness (admins): members' recall on their goal dates",
    "/quiz stats",
    params=(
        PUBLIC,
        Param(
            "readiness",
            ParamKind.FLAG,
            "Each member's expected recall on their goal date, privately (admins)",
            admin=True,
        ),
    ),
    build=lambda a: ShowReadiness() if a.get("readiness") else ShowStats(bool(a.get("public"))),
    handler=RoundCommands.show_stats,
)

NOW = Subcommand(
    "now",
    "post a question now",
    "/quiz now attention",
    params=(
        Param(
            "topic",
            ParamKind.WORD,
            "Only from this topic",
            metavar="TOPIC",
            label="topic",
            suggest=Suggest.TOPICS,
        ),
    ),
    build=lambda a: PostNow(topic=None if a.get("topic") is None else str(a["topic"]).lower()),
    handler=RoundCommands.post_now,
    admin=True,
)

REVEAL = Subcommand(
    "reveal",
    "post the answer outline now",
    "/quiz reveal",
    build=lambda _: RevealNow(),
    handler=RoundCommands.reveal_now,
    admin=True,
)

SKIP = Subcommand(
    "skip",
    "close the current round",
    "/quiz skip",
    build=lambda _: SkipRound(),
    handler=RoundCommands.skip_round,
    admin=True,
)


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (
    Listed(10, LEADERBOARD),
    Listed(160, STATS),
    Listed(220, NOW),
    Listed(230, REVEAL),
    Listed(250, SKIP),
)
