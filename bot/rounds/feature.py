"""The rounds feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.bank.catalog import WorkspaceCatalog
from bot.feature import ButtonRoute, ErasedTable, Feature, KeptTable, Parts
from bot.kernel.clock import Clock
from bot.kernel.events import ButtonPress
from bot.kernel.platform import Platform
from bot.kernel.render import Response
from bot.outbox.worker import OutboxWorker
from bot.rounds.buttons import RoundButtons
from bot.rounds.commands import SUBCOMMANDS, RoundCommands
from bot.rounds.engine import QuizEngine
from bot.rounds.performers import BeforeOutline, RoundPerformers
from bot.rounds.stats_sources import CoachSpending, ReadinessView, RoundGrader, WeakestTopics
from bot.rounds.store import ReportStore, RoundStore
from bot.rounds.timed_steps import TimedSteps


class RoundsStores(Protocol):
    @property
    def rounds(self) -> RoundStore: ...
    @property
    def reports(self) -> ReportStore: ...


class RoundsDeps(Protocol):
    @property
    def store(self) -> RoundsStores: ...
    @property
    def engine(self) -> QuizEngine: ...
    @property
    def learning(self) -> WeakestTopics: ...
    @property
    def readiness(self) -> ReadinessView: ...
    @property
    def grading(self) -> RoundGrader: ...
    @property
    def coach_spending(self) -> CoachSpending: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def questions(self) -> WorkspaceCatalog: ...
    @property
    def outbox(self) -> OutboxWorker: ...
    @property
    def timed(self) -> TimedSteps: ...
    @property
    def before_outline(self) -> BeforeOutline: ...


def build(deps: RoundsDeps) -> Parts:
    store, engine = deps.store, deps.engine
    buttons = RoundButtons(engine, store.rounds, deps.grading.grade)
    performers = RoundPerformers(
        rounds=store.rounds,
        question_for=engine.question_for,
        timed=deps.timed,
        clock=deps.clock,
        hand_over=deps.outbox.hand_over,
        before_outline=deps.before_outline,
    )

    async def on_press(event: ButtonPress, platform: Platform) -> Response:
        return await buttons.on_press(event)

    return Parts(
        handlers=(
            RoundCommands(
                engine,
                store.rounds,
                store.reports,
                deps.learning,
                deps.readiness,
                clock=deps.clock,
                questions=deps.questions,
                coach=deps.coach_spending,
            ),
        ),
        # a round's buttons are every button no other feature claims
        buttons=(ButtonRoute(on_press),),
        performers=performers.performers(),
    )


FEATURE: Feature[RoundsDeps] = Feature(
    "rounds",
    subcommands=SUBCOMMANDS,
    build=build,
    aggregates=("rounds", "answers", "reports"),
    member_tables=(
        ErasedTable("answers", "their answers (blind ones included)"),
        ErasedTable("votes", "the votes others gave them"),
        ErasedTable("reveal_reactors"),
        KeptTable(
            "votes.voter_id", "a vote they gave stays in the other member's points, naming no one"
        ),
    ),
)
