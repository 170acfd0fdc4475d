"""The coach feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.coaching.assessor import CoachAssessor, QuestionFor
from bot.coaching.cards import COACH_ACTIONS
from bot.coaching.commands import SUBCOMMANDS, CoachCommands
from bot.coaching.dashboard_section import CoachOnThePage
from bot.coaching.decisions import TICKS_FORM, CoachDecisions, opens_form
from bot.coaching.metrics import CoachMetrics
from bot.coaching.practice_decisions import PracticeDecisions, PracticeGrading
from bot.coaching.setup import CoachSetup
from bot.coaching.store import CoachStore
from bot.feature import ButtonRoute, ErasedTable, Feature, FormRoute, OnDashboard, Parts
from bot.kernel.clock import Clock
from bot.kernel.dashboard_views import DashboardPage
from bot.kernel.events import ButtonPress, FormSubmit
from bot.kernel.members import MemberIds
from bot.kernel.outbox_queue import OutboxQueue
from bot.kernel.platform import Platform
from bot.kernel.render import Response
from bot.learning.grading import RoundGrading
from bot.rounds.store import AnswerStore, RoundStore


class CoachStores(Protocol):
    @property
    def coach(self) -> CoachStore: ...
    @property
    def members(self) -> MemberIds: ...
    @property
    def answers(self) -> AnswerStore: ...
    @property
    def rounds(self) -> RoundStore: ...


class CoachDeps(Protocol):
    @property
    def store(self) -> CoachStores: ...
    @property
    def coach_setup(self) -> CoachSetup | None: ...
    @property
    def coach_assessor(self) -> CoachAssessor: ...
    @property
    def coach_metrics(self) -> CoachMetrics: ...
    @property
    def outbox_queue(self) -> OutboxQueue: ...
    @property
    def question_for(self) -> QuestionFor: ...
    @property
    def grading(self) -> RoundGrading: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def practice(self) -> PracticeGrading: ...


def build(deps: CoachDeps) -> Parts:
    store = deps.store
    setup = deps.coach_setup
    decisions = CoachDecisions(
        coach=store.coach,
        rounds=store.rounds,
        question_for=deps.question_for,
        grading=deps.grading,
        clock=deps.clock,
        metrics=deps.coach_metrics,
        practice=PracticeDecisions(
            coach=store.coach,
            practice=deps.practice,
            question_for=deps.question_for,
            clock=deps.clock,
        ),
    )

    async def on_button(event: ButtonPress, platform: Platform) -> Response | None:
        return await decisions.on_button(event, platform)

    async def on_form(event: FormSubmit, platform: Platform) -> Response | None:
        return await decisions.on_form(event, platform)

    reader = None if setup is None else setup.reader()
    return Parts(
        handlers=(CoachCommands(store.coach, store.members, deps.clock, reader, decisions),),
        buttons=(ButtonRoute(on_button, lambda e: e.action in COACH_ACTIONS),),
        forms=(FormRoute(on_form, lambda e: e.kind == TICKS_FORM),),
        performers=deps.coach_assessor.performers(),
        answered=deps.coach_assessor.answered,
        dashboard_sections=(
            OnDashboard(DashboardPage.LEAD, 60, CoachOnThePage(store.coach, setup)),
        ),
    )


FEATURE: Feature[CoachDeps] = Feature(
    "coaching",
    subcommands=SUBCOMMANDS,
    opens_form=opens_form,
    build=build,
    aggregates=("coach",),
    member_tables=(
        ErasedTable("coach_opt_outs", "their opt-out"),
        ErasedTable("coach_probe_opt_outs", "their opt-out of the coach's follow-up"),
        ErasedTable("coach_assessments", "the coach's readings of their answers"),
        ErasedTable("coach_member_usage", "how many readings they asked for each day"),
        ErasedTable(
            "coach_practice_readings", "the coach's readings of their practice answers, with them"
        ),
    ),
)
