"""The channels feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.bank.catalog import WorkspaceCatalog
from bot.blind.answers import BlindAnswers
from bot.channels import schedule_subcommand
from bot.channels.commands import SUBCOMMANDS, ChannelCommands
from bot.channels.dashboard_section import ScheduleAhead
from bot.channels.editor import ChannelSettingsEditor
from bot.feature import Feature, OnDashboard, Parts
from bot.kernel.clock import Clock
from bot.kernel.coach_consent import CoachConsent
from bot.kernel.config import QuizConfig
from bot.kernel.dashboard_views import DashboardPage
from bot.kernel.models import ChannelSettings
from bot.scheduling.skipped_days import SkippedDayStore


class ChannelsStores(Protocol):
    @property
    def skipped_days(self) -> SkippedDayStore: ...


class ChannelsDeps(Protocol):
    @property
    def store(self) -> ChannelsStores: ...
    @property
    def settings(self) -> ChannelSettingsEditor: ...
    @property
    def retime_open_round(self) -> Callable[[ChannelSettings], Awaitable[None]]: ...
    @property
    def questions(self) -> WorkspaceCatalog: ...
    @property
    def blind(self) -> BlindAnswers: ...
    @property
    def config(self) -> QuizConfig: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def coach_consent(self) -> CoachConsent: ...


def build(deps: ChannelsDeps) -> Parts:
    commands = ChannelCommands(
        settings=deps.settings,
        questions=deps.questions,
        blind=deps.blind,
        config=deps.config,
        clock=deps.clock,
        skipped_days=deps.store.skipped_days,
        retime_open_round=deps.retime_open_round,
        coach=deps.coach_consent,
    )
    return Parts(
        handlers=(commands,),
        dashboard_sections=(
            OnDashboard(DashboardPage.LEAD, 50, ScheduleAhead(deps.store.skipped_days)),
        ),
    )


FEATURE: Feature[ChannelsDeps] = Feature(
    "channels",
    subcommands=(*SUBCOMMANDS, *schedule_subcommand.SUBCOMMANDS),
    build=build,
)
