"""The dashboard feature's face: what it adds to the bot (see :mod:`bot.feature`).

Its own sections of the two pages are declared here like any other feature's (another
feature adds one with a line in its own face: ``dashboard_sections``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from bot.bank.catalog import WorkspaceCatalog
from bot.bank.store import BankStore
from bot.dashboard.commands import SUBCOMMANDS, DashboardCommands
from bot.dashboard.lead_sections import ItemAnalysis, MockInterviews, Participation, RecallHeatmap
from bot.dashboard.member_sections import FromQuizMe, MemberRecall, Standing, Switches
from bot.dashboard.pages import DashboardPages
from bot.dashboard.store import DashboardStore
from bot.feature import ErasedTable, Feature, OnDashboard, Parts
from bot.kernel.clock import Clock
from bot.kernel.config import QuizConfig
from bot.kernel.dashboard_views import DashboardPage
from bot.kernel.members import MemberIds
from bot.kernel.own_views import MeSectionSource, Ranked, SettingOnPage
from bot.kernel.refs import ChannelRef
from bot.learning.service import LearningService
from bot.member_data.home import HomePages
from bot.member_data.readiness import Readiness
from questions.pack import Question

LEAD, MEMBER = DashboardPage.LEAD, DashboardPage.MEMBER


class DashboardStores(Protocol):
    @property
    def dashboard(self) -> DashboardStore: ...
    @property
    def members(self) -> MemberIds: ...
    @property
    def bank(self) -> BankStore: ...


class DashboardDeps(Protocol):
    @property
    def store(self) -> DashboardStores: ...
    @property
    def dashboard(self) -> DashboardPages: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def config(self) -> QuizConfig: ...
    @property
    def learning(self) -> LearningService: ...
    @property
    def readiness(self) -> Readiness: ...
    @property
    def questions(self) -> WorkspaceCatalog: ...
    @property
    def question_for(self) -> Callable[[ChannelRef, int], Question | None]: ...
    @property
    def home(self) -> HomePages: ...
    @property
    def me_sections(self) -> Ranked[MeSectionSource]: ...
    @property
    def settings_on_page(self) -> Ranked[SettingOnPage]: ...


def build(deps: DashboardDeps) -> Parts:
    store = deps.store.dashboard
    topics = deps.questions.graded_topics
    return Parts(
        handlers=(DashboardCommands(deps.dashboard, store, deps.store.members, deps.clock),),
        dashboard_sections=(
            OnDashboard(LEAD, 10, Participation(store)),
            OnDashboard(
                LEAD,
                20,
                RecallHeatmap(store, topics, deps.readiness, deps.learning.workspace_model),
            ),
            OnDashboard(LEAD, 30, ItemAnalysis(store, deps.store.bank, deps.question_for)),
            OnDashboard(LEAD, 40, MockInterviews(store)),
            OnDashboard(
                MEMBER, 10, MemberRecall(deps.learning, topics, deps.config.default_timezone)
            ),
            OnDashboard(MEMBER, 20, Standing(deps.home)),
            OnDashboard(MEMBER, 30, FromQuizMe(deps.me_sections, deps.learning)),
            OnDashboard(MEMBER, 40, Switches(deps.settings_on_page)),
        ),
    )


FEATURE: Feature[DashboardDeps] = Feature(
    "dashboard",
    subcommands=SUBCOMMANDS,
    build=build,
    aggregates=("dashboard",),
    member_tables=(ErasedTable("dashboard_shares", "whether they share their rows with the lead"),),
)
