"""The pairing feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, Protocol

from bot.channels.editor import ChannelSettingsEditor
from bot.feature import ChannelSchedule, ErasedTable, Feature, KeptTable, OnMe, Parts
from bot.kernel.clock import Clock
from bot.kernel.followed import Followed
from bot.kernel.members import MemberIds
from bot.kernel.models import ActionKind, ChannelSettings
from bot.kernel.stores import ChangeKind, ChannelChanges
from bot.learning.service import LearningService
from bot.outbox.performers import StepPerformer
from bot.pairing.commands import SUBCOMMANDS, PairCommands, QuestionLookup
from bot.pairing.me_section import MockInterviewsSection
from bot.pairing.schedule import StoredPairing
from bot.pairing.store import PairStore
from bot.pairing.weekly import WeeklyPairings
from bot.reminders.store import ReminderStore

PAIR_JOB = "pair"  # the scheduler job's name

# plans a channel's job of that name again (its settings, or another of its rows, changed)
Replan = Callable[[str, ChannelSettings], None]


class PairingStores(Protocol):
    @property
    def pairs(self) -> PairStore: ...
    @property
    def members(self) -> MemberIds: ...
    @property
    def reminders(self) -> ReminderStore: ...


class PairingDeps(Protocol):
    @property
    def store(self) -> PairingStores: ...
    @property
    def pairings(self) -> WeeklyPairings: ...
    @property
    def learning(self) -> LearningService: ...
    @property
    def settings(self) -> ChannelSettingsEditor: ...
    @property
    def question_for(self) -> QuestionLookup: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def replan(self) -> Replan: ...


def build(deps: PairingDeps) -> Parts:
    store, pairings = deps.store, deps.pairings
    commands = PairCommands(
        pairings=pairings,
        pairs=store.pairs,
        members=store.members,
        reminders=store.reminders,
        learning=deps.learning,
        settings=deps.settings,
        question_for=deps.question_for,
        clock=deps.clock,
    )

    async def begin(channels: Sequence[ChannelSettings], platforms: Collection[str]) -> None:
        await pairings.load(channels)
        await pairings.catch_up(channels, platforms)

    def stored(channel_id: int, stored: StoredPairing | None) -> None:
        """Another replica changed the channel's pairing slot: kept and planned here too."""
        if stored is not None:
            pairings.stored(stored)
            deps.replan(PAIR_JOB, stored.channel)

    def follows(changes: ChannelChanges) -> tuple[Followed[Any], ...]:
        return (
            Followed(
                ChangeKind.PAIR_SCHEDULE,
                changes.pair_schedule_versions,
                pairings.read_stored,
                stored,
            ),
        )

    return Parts(
        handlers=(commands,),
        performers=(StepPerformer(ActionKind.PAIRING, pairings.perform),),
        schedules=(
            ChannelSchedule(PAIR_JOB, begin, pairings.plan, pairings.on_slot, pairings.plan_groups),
        ),
        follows=follows,
        me_sections=(OnMe(30, MockInterviewsSection(store.pairs)),),
    )


FEATURE: Feature[PairingDeps] = Feature(
    "pairing",
    subcommands=SUBCOMMANDS,
    build=build,
    aggregates=("pairs",),
    member_tables=(
        ErasedTable("pair_members", "their opt-in to mock interviews"),
        ErasedTable("pair_briefs", "the questions they were interviewed on"),
        ErasedTable("pair_ratings", "the ratings they were given"),
        KeptTable(
            "pair_groups",
            "a partner's history keeps the week they met: the member's place in the group goes"
            " to the workspace's former member (a members row with no platform id and no name)",
        ),
        KeptTable(
            "pair_briefs.interviewer_id",
            "the question a partner was interviewed on stays theirs, asked by the former member",
        ),
        KeptTable(
            "pair_ratings.interviewer_id",
            "a rating they gave a partner stays the partner's, given by the former member",
        ),
    ),
)
