"""The coach aggregate's seam: the channel switch lives in the channel's settings; this holds
members' opt-outs, each assessed answer and what the coach spent."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from typing import Protocol

from bot.coach.verification import VerifiedTick
from bot.coaching.practice_store import PracticeReadings
from bot.kernel.refs import MemberRef


class AssessmentState(StrEnum):
    """Where an assessment stands (a stored value: never renamed)."""

    READY = "ready"  # assessed; its card waits until the outline is out to the member
    SHOWN = "shown"  # its card is queued to the member
    ACCEPTED = "accepted"
    EDITED = "edited"
    DISMISSED = "dismissed"
    UNAVAILABLE = "unavailable"  # the endpoint failed past its retries, or replied nonsense
    OVER_BUDGET = "over_budget"  # no request: the day's budget was spent


DECIDED = frozenset({AssessmentState.ACCEPTED, AssessmentState.EDITED, AssessmentState.DISMISSED})


@dataclass(frozen=True, slots=True)
class AnswerToAssess:
    """A first answer the coach may read: what the prompt needs (the text, the question) and
    where its card goes (the author, privately). The author's name and ids never reach the
    endpoint."""

    answer_id: int
    round_id: int
    channel_id: int
    question_id: int
    member_id: int
    author: MemberRef
    text: str
    answered_at: datetime
    revealed: bool


@dataclass(frozen=True, slots=True)
class NewAssessment:
    answer_id: int
    member_id: int
    model: str
    cache_key: str
    key_points: int
    ticks: tuple[VerifiedTick, ...]
    dropped: int
    tokens: int
    state: AssessmentState
    at: datetime


@dataclass(frozen=True, slots=True)
class StoredAssessment:
    id: int
    answer_id: int
    member_id: int
    model: str
    key_points: int
    ticks: tuple[VerifiedTick, ...]
    dropped: int
    tokens: int
    state: AssessmentState
    accepted: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Usage:
    """What the coach spent on one day: the workspace's requests and tokens, one member's
    requests."""

    workspace_requests: int
    workspace_tokens: int
    member_requests: int


@dataclass(frozen=True, slots=True)
class DecisionCounts:
    """What members did with the coach's cards: how many they accepted as read, edited or
    dismissed, and how many members decided at all."""

    accepted: int
    edited: int
    dismissed: int
    members: int

    @property
    def decided(self) -> int:
        return self.accepted + self.edited + self.dismissed


class CoachStore(PracticeReadings, Protocol):
    """Persistence of the coach. Every write is committed before it returns."""

    async def refuse_coach(self, member_id: int, at: datetime) -> bool:
        """The member's answers are no longer sent; False when they had opted out already."""
        ...

    async def allow_coach(self, member_id: int) -> bool:
        """Their answers may be sent again; False when they had not opted out."""
        ...

    async def refuses_coach(self, member_id: int) -> bool: ...

    async def answer_to_assess(self, answer_id: int) -> AnswerToAssess | None:
        """The answer (its round's reveal included); None when it is gone (erased)."""
        ...

    async def assessment(self, answer_id: int, model: str) -> StoredAssessment | None: ...

    async def assessment_by_id(self, assessment_id: int) -> StoredAssessment | None: ...

    async def cached_ticks(self, cache_key: str) -> tuple[tuple[VerifiedTick, ...], int] | None:
        """The ticks (and dropped count) an earlier assessment under ``cache_key`` got from
        the endpoint; None when no answer with that key was assessed."""
        ...

    async def usage(self, platform: str, workspace: str, member_id: int, day: date) -> Usage: ...

    async def record_assessment(
        self, assessment: NewAssessment, *, platform: str, workspace: str, requests: int
    ) -> StoredAssessment:
        """Store the assessment and add its ``requests`` and tokens to the day's usage, in
        one transaction; an assessment of that answer and model stored already is kept and
        returned (another process recorded it first)."""
        ...

    async def mark_shown(self, assessment_id: int) -> bool:
        """A ready assessment's card is queued; False when it was not ready any more."""
        ...

    async def outline_out(self, round_id: int, outline_key: str) -> bool:
        """Whether the round was revealed and its outline (the outbox action ``outline_key``)
        posted: done, or pruned since it was."""
        ...

    async def ready_of_round(self, round_id: int) -> list[StoredAssessment]:
        """The round's assessments whose cards wait for its outline."""
        ...

    async def decide(
        self,
        assessment_id: int,
        state: AssessmentState,
        accepted: Sequence[int],
        at: datetime,
    ) -> None:
        """Record the author's decision (``accepted``: the coach's ticks they kept; none when
        dismissed) and, in the same transaction, bring the answer's quality points in step."""
        ...

    async def judged_by_both(self, channel_id: int) -> list[tuple[frozenset[int], frozenset[int]]]:
        """Each answer of the channel that the coach read and teammates reviewed with ticks:
        (the coach's verified ticks, the union of the reviewers' ticks)."""
        ...

    async def month_usage(self, platform: str, workspace: str, since: date) -> tuple[int, int]:
        """The workspace's coach requests and tokens since ``since``."""
        ...

    async def decision_counts(self, channel_id: int, since: datetime) -> DecisionCounts:
        """The decisions on the coach's cards of the channel's answers made at ``since`` or
        later."""
        ...
