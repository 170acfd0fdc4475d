"""The dashboard's store aggregate: who lets the lead see their own rows, and the few
figures of the lead's page no other feature computes (participation by day, the grades and
reviewers' ticks of each question, mock-interview ratings)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol


@dataclass(frozen=True, slots=True)
class CardFigures:
    """A memory card as far as a forecast reads it (see :func:`memory_model.recall_after`)."""

    question_id: int
    stability: float
    last_review: datetime


@dataclass(frozen=True, slots=True)
class DailyCounts:
    """How many of each kind of activity a channel had on one day (UTC)."""

    day: date
    answers: int = 0
    grades: int = 0  # members' own grades of their answers to the channel's rounds
    reviews: int = 0  # teammates' reviews of answers in the channel
    practice: int = 0  # private practice graded by the channel's members


@dataclass(frozen=True, slots=True)
class QuestionGrades:
    """The members' own grades of one question asked in the channel."""

    question_id: int
    graded: int
    good_or_better: int  # good or nailed
    missed: int


@dataclass(frozen=True, slots=True)
class GradeDisagreement:
    """A member's own grade of an answer beside the scores its reviewers gave it."""

    round_id: int
    question_id: int
    member_id: int
    own: int  # 1..4: missed, partly, good, nailed
    reviewers: tuple[int, ...]  # their scores, 1..4


@dataclass(frozen=True, slots=True)
class PairRatingRow:
    """One mock interview's rating: the week, who interviewed whom, the score (1..4)."""

    week: str
    interviewer_id: int
    candidate_id: int
    score: int


class DashboardStore(Protocol):
    """Persistence of the dashboard. Every write is committed before the call returns."""

    async def sharing(self, channel_id: int) -> frozenset[int]:
        """The store ids of the channel's members who share their rows with the lead."""
        ...

    async def set_sharing(self, channel_id: int, member_id: int, on: bool, at: datetime) -> bool:
        """Share (or stop sharing) the member's rows; False when it already was so."""
        ...

    async def daily_counts(self, channel_id: int, since: datetime) -> list[DailyCounts]:
        """The channel's activity per day from ``since``, oldest first (days with any)."""
        ...

    async def question_grades(self, channel_id: int) -> list[QuestionGrades]: ...

    async def reviewed_ticks(self, channel_id: int) -> dict[int, set[int]]:
        """Per question asked in the channel and reviewed at least once, the key points
        (their numbers, from 1) any reviewer ticked in any answer."""
        ...

    async def grade_disagreements(self, channel_id: int) -> list[GradeDisagreement]:
        """Members' own grades of answers that teammates reviewed too."""
        ...

    async def channel_members(self, channel_id: int) -> Sequence[tuple[int, str]]:
        """Every member who answered in the channel: store id and shown name."""
        ...

    async def channel_card_figures(self, channel_id: int) -> dict[int, list[CardFigures]]:
        """What a forecast needs of the memory cards of every member who answered in the
        channel, by member: one read for the team's heatmap instead of one a member."""
        ...

    async def pair_ratings(self, channel_id: int) -> list[PairRatingRow]:
        """The channel's mock interviews that were rated, newest week first."""
        ...

    async def pair_groups_held(self, channel_id: int) -> list[tuple[str, int]]:
        """Per week the channel was paired (newest first): how many groups were formed."""
        ...
