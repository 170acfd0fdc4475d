"""The reminders feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Protocol

from bot.feature import ErasedTable, Feature, Listed, OnHome, OwnSchedule, Parts
from bot.kernel.config import QuizConfig
from bot.kernel.followed import Followed
from bot.kernel.models import ChannelSettings
from bot.kernel.stores import ChangeKind, ChannelChanges
from bot.reminders.commands import REMIND, ReminderCommands
from bot.reminders.daily import DailyReminders
from bot.reminders.home_switch import ReminderSwitch
from bot.reminders.store import ReminderStore
from bot.rounds.store import AnswerStore
from bot.scheduling.scheduler import QuizScheduler


class RemindersStores(Protocol):
    @property
    def answers(self) -> AnswerStore: ...
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
    commands = ReminderCommands(reminders, deps.store.answers, deps.config.default_timezone)

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
        home_switches=(OnHome(10, ReminderSwitch(deps.store.reminders)),),
    )


FEATURE: Feature[RemindersDeps] = Feature(
    "reminders",
    subcommands=(Listed(100, REMIND),),
    build=build,
    aggregates=("reminders",),
    member_tables=(ErasedTable("reminders"),),
)
