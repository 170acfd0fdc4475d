"""The practice feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.feature import ButtonRoute, ErasedTable, Feature, Parts
from bot.kernel.models import ActionKind
from bot.outbox.performers import StepPerformer
from bot.practice.commands import SUBCOMMANDS, PracticeCommands
from bot.practice.sessions import PracticeSessions, is_practice_button


class PracticeDeps(Protocol):
    @property
    def practice(self) -> PracticeSessions: ...


def build(deps: PracticeDeps) -> Parts:
    practice = deps.practice
    return Parts(
        handlers=(PracticeCommands(practice),),
        buttons=(ButtonRoute(practice.on_button, is_practice_button),),
        direct=practice.on_direct,
        performers=(StepPerformer(ActionKind.PRACTICE_TIMER, practice.on_timer),),
    )


FEATURE: Feature[PracticeDeps] = Feature(
    "practice",
    subcommands=SUBCOMMANDS,
    build=build,
    aggregates=("practice",),
    member_tables=(ErasedTable("practice_sessions"),),
)
