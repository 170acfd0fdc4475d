"""The learning feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Protocol

from bot.away.store import AwayStore
from bot.feature import ErasedTable, Feature, OwnSchedule, Parts
from bot.kernel.clock import Clock
from bot.kernel.config import QuizConfig
from bot.kernel.members import MemberIds
from bot.kernel.models import ChannelSettings
from bot.kernel.own_views import MeSectionSource, Ranked
from bot.learning.commands import SUBCOMMANDS, LearningCommands
from bot.learning.grading import RoundGrading
from bot.learning.neighbours import PracticeGrading
from bot.learning.service import LearningService
from bot.rounds.store import ReportStore, RoundStore
from bot.scheduling.scheduler import QuizScheduler


class LearningStores(Protocol):
    @property
    def members(self) -> MemberIds: ...
    @property
    def rounds(self) -> RoundStore: ...
    @property
    def reports(self) -> ReportStore: ...
    @property
    def away(self) -> AwayStore: ...


class LearningDeps(Protocol):
    @property
    def store(self) -> LearningStores: ...
    @property
    def learning(self) -> LearningService: ...
    @property
    def grading(self) -> RoundGrading: ...
    @property
    def practice(self) -> PracticeGrading[Any]: ...
    @property
    def me_sections(self) -> Ranked[MeSectionSource]: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def config(self) -> QuizConfig: ...


def build(deps: LearningDeps) -> Parts:
    store = deps.store
    commands = LearningCommands(
        learning=deps.learning,
        grading=deps.grading,
        practice=deps.practice,
        sections=deps.me_sections,
        members=store.members,
        rounds=store.rounds,
        reports=store.reports,
        away=store.away,
        clock=deps.clock,
        default_timezone=deps.config.default_timezone,
    )
    fitting = deps.learning.fitting
    if fitting is None:
        return Parts(handlers=(commands,))

    async def begin(_channels: Sequence[ChannelSettings], _platforms: Collection[str]) -> None:
        return None  # a missed weekly fit waits for the next week: nothing is owed

    weekly = OwnSchedule("fit-parameters", begin, fitting.plans, fitting.on_slot, _unused)
    return Parts(handlers=(commands,), schedules=(weekly,))


def _unused(_scheduler: QuizScheduler | None) -> None:
    """The weekly fit keeps no plan of its own to change: it needs no scheduler."""


FEATURE: Feature[LearningDeps] = Feature(
    "learning",
    subcommands=SUBCOMMANDS,
    build=build,
    aggregates=("learning", "fitted_parameters"),
    member_tables=(
        ErasedTable("grades"),
        ErasedTable("member_cards"),
        ErasedTable("member_goals"),
    ),
)
