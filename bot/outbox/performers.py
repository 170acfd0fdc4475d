"""What the outbox asks of a feature: the performers of its actions, by kind.

The worker owns claims, leases, attempts, retries, pacing and ordering; what one action
does (post a question, a recap, a pairing's intros) is its feature's, registered here by
the composition root. A performer says what the worker needs to order and pace it: what
it waits for, whether it sends one message under the action's own key (looked up before
a retry sends it again), whether the platform's pacing holds it, and, for a timed step,
when it is due now.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from bot.kernel.models import ActionKind, ChannelSettings, OutboxAction, Round
from bot.kernel.platform import Platform
from bot.kernel.refs import ChannelRef, MessageRef, ThreadRef
from questions.pack import Question

# Looks a message up by its key in the round's channel (or thread) since the round began.
FindSent = Callable[[str, ThreadRef | None], Awaitable[MessageRef | None]]
DueAgain = Callable[[OutboxAction, Round, ChannelSettings], Awaitable[datetime | None]]


@dataclass(frozen=True, slots=True)
class RoundStep:
    """One of a round's actions being performed (its attempt begun), with what its
    performer may use."""

    platform: Platform
    action: OutboxAction
    round: Round
    channel: ChannelSettings
    question: Question | None  # None for a performer that needs no question
    find_sent: FindSent


class Prerequisite(Enum):
    """What must be done before a round's action may be performed."""

    NONE = "none"
    QUESTION_MESSAGE = "question_message"  # the question is posted
    THREAD = "thread"  # the round's thread is open


@dataclass(frozen=True, slots=True)
class RoundPerformer:
    """Performs a round's actions of one kind; returns the message or thread it made."""

    kind: ActionKind
    perform: Callable[[RoundStep], Awaitable[str | None]]
    after: Prerequisite = Prerequisite.NONE
    one_message: bool = False  # one message under the action's key: looked up before a retry
    paced: bool = False  # posts to the channel: the platform's pacing may hold it
    needs_question: bool = True  # a recap reports a week, not one question
    # A timed step: when it is due now (the channel's settings may have changed since it
    # was queued); None: now.
    due_again: (
        Callable[[OutboxAction, Round, ChannelSettings], Awaitable[datetime | None]] | None
    ) = None
    # Whether a paced action posts anything at all (follow-ups of a question that has none)
    posts: Callable[[ChannelRef, Round], bool] | None = None


@dataclass(frozen=True, slots=True)
class StepPerformer:
    """Performs a direct action that carries no card (a channel's weekly pairing, a
    practice session's timer): it queues what it decides and sends nothing itself."""

    kind: ActionKind
    perform: Callable[[Platform, OutboxAction], Awaitable[None]]
    # A step that may wait long on something else (a model's reply): the worker performs
    # it beside its passes, so no post of the next pass waits for it. Its destination's
    # steps still go one at a time, and one of them at a time is in flight.
    detached: bool = False


Performer = RoundPerformer | StepPerformer


class Performers:
    """The performers the running features registered, one per action kind."""

    def __init__(self, performers: Iterable[Performer] = ()) -> None:
        self._rounds: dict[ActionKind, RoundPerformer] = {}
        self._steps: dict[ActionKind, StepPerformer] = {}
        self.add(*performers)

    def add(self, *performers: Performer) -> None:
        for performer in performers:
            if performer.kind in self._rounds or performer.kind in self._steps:
                raise ValueError(f"two performers of {performer.kind.value} actions")
            if isinstance(performer, RoundPerformer):
                self._rounds[performer.kind] = performer
            else:
                self._steps[performer.kind] = performer

    def of_round(self, kind: ActionKind) -> RoundPerformer | None:
        return self._rounds.get(kind)

    def step(self, kind: ActionKind) -> StepPerformer | None:
        return self._steps.get(kind)

    @property
    def kinds(self) -> frozenset[ActionKind]:
        return frozenset({*self._rounds, *self._steps})
