"""The reminders feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.feature import Feature, Listed, Parts
from bot.kernel.config import QuizConfig
from bot.reminders.commands import REMIND, ReminderCommands
from bot.reminders.daily import DailyReminders
from bot.rounds.store import AnswerStore


class RemindersStores(Protocol):
    @property
    def answers(self) -> AnswerStore: ...


class RemindersDeps(Protocol):
    @property
    def store(self) -> RemindersStores: ...
    @property
    def reminders(self) -> DailyReminders: ...
    @property
    def config(self) -> QuizConfig: ...


def build(deps: RemindersDeps) -> Parts:
    commands = ReminderCommands(deps.reminders, deps.store.answers, deps.config.default_timezone)
    return Parts(handlers=(commands,))


FEATURE: Feature[RemindersDeps] = Feature(
    "reminders",
    subcommands=(Listed(100, REMIND),),
    build=build,
)
