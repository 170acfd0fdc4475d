"""The reminders feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Protocol

from bot.feature import ErasedTable, Feature, OnPage, OwnSchedule, Parts
from bot.kernel.config import QuizConfig
from bot.kernel.followed import Followed
from bot.kernel.members import MemberIds
from bot.kernel.models import ChannelSettings
from bot.kernel.stores import ChangeKind, ChannelChanges
from bot.reminders.commands import SUBCOMMANDS, ReminderCommands
from bot.reminders.daily import DailyReminders
from bot.reminders.setting_on_page import ReminderOnPage
from bot.reminders.store import ReminderStore
from bot.scheduling.scheduler import QuizScheduler


class RemindersStores(Protocol):
    @property
    def members(self) -> MemberIds: ...
    @property
    def reminders(self) -> ReminderStore: ...


class RemindersDeps(Protocol):
    @property
    def store(self) -> RemindersStores: ...
    @property
    def reminders(self) -> DailyReminders: ...
    @property
    def config(self) -> QuizConfig: ...


def build(deps: RemindersDeps) -> Parts:
    reminders = deps.reminders
    commands = ReminderCommands(reminders, deps.store.members, deps.config.default_timezone)

    async def begin(_channels: Sequence[ChannelSettings], platforms: Collection[str]) -> None:
        await reminders.catch_up(await reminders.load(platforms))

    def fired_by(scheduler: QuizScheduler | None) -> None:
        reminders.scheduler = scheduler

    def follows(changes: ChannelChanges) -> tuple[Followed[Any], ...]:
        return (
            Followed(
                ChangeKind.REMINDER,
                changes.reminder_versions,
                deps.store.reminders.reminder,
                reminders.stored,
            ),
        )

    schedule = OwnSchedule("remind", begin, reminders.plans, reminders.on_slot, fired_by)
    return Parts(
        handlers=(commands,),
        schedules=(schedule,),
        follows=follows,
        settings_on_page=(OnPage(10, ReminderOnPage(deps.store.reminders)),),
    )


FEATURE: Feature[RemindersDeps] = Feature(
    "reminders",
    subcommands=SUBCOMMANDS,
    build=build,
    aggregates=("reminders",),
    member_tables=(ErasedTable("reminders"),),
)
