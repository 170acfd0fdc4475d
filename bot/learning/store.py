"""The learning aggregate's seam: grades (the review log), FSRS cards and members' goals."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from typing import Protocol

from bot.kernel.grades import Grade
from bot.kernel.pair_facts import PairRating
from bot.learning.first_sight import FirstGradeCount, FirstGrades
from bot.learning.memory_model import LoggedGrade, MemoryCard

CardBuilder = Callable[[int, Sequence[LoggedGrade]], MemoryCard | None]


class GradeSource(StrEnum):
    """Who gave a grade (a stored value: never renamed): the member; when they gave none,
    their answer's reviewers; below both, the coach standing in for a member who never
    grades (:attr:`rank`: a source's grade replaces only one of the same rank or lower)."""

    SELF = "self"
    REVIEWS = "reviews"
    COACH = "coach"

    @property
    def rank(self) -> int:
        return _RANKS[self]


_RANKS = {GradeSource.SELF: 3, GradeSource.REVIEWS: 2, GradeSource.COACH: 1}


class OwnGradeKept(Exception):
    """A grade that stands in (from reviews or the coach) was not recorded: the round has a
    grade of a higher rank (the member's own, or for the coach's, their reviewers')."""


@dataclass(frozen=True, slots=True)
class GradeDraft:
    """A grade to record: who graded which question how, when, and in which round."""

    member_id: int
    question_id: int
    grade: Grade
    at: datetime
    round_id: int | None = None  # None: a grade outside a channel round (private practice)
    channel_id: int | None = None  # the round's channel, whose card is rebuilt too
    # the open practice session this grade ends, closed ("graded") in the grade's transaction
    closes_session: int | None = None
    # the key points (1-based) the member ticked; None: a plain grade
    covered: tuple[int, ...] | None = None
    source: GradeSource = GradeSource.SELF
    # the mock-interview rating this grade of the candidate comes from, recorded with it
    rating: PairRating | None = None


class RatedAlready(Exception):
    """The interviewer rated that mock interview already (the rating a grade was to record
    with it): nothing was recorded."""


class SessionOver(Exception):
    """The practice session a grade was to close is closed already (graded by a press just
    before, stopped or expired): nothing was recorded."""


@dataclass(frozen=True, slots=True)
class GradeResult:
    """A recorded grade: the member's card after it and the grade it replaced."""

    card: MemoryCard  # the member's card after this grade
    replaced: Grade | None = None  # the member's earlier grade of the same round
    replaced_source: GradeSource | None = None  # who gave it: they, or their reviewers


@dataclass(frozen=True, slots=True)
class RecentGrades:
    """What a member's pace is computed from: their first grade and their grades lately."""

    first: datetime | None  # their earliest grade up to the moment asked; None: no grade
    recent: int  # their grades from the start of the window to that moment


class LearningStore(Protocol):
    """Persistence of the learning loop. Every write is committed before the call returns."""

    async def record_grade(
        self, draft: GradeDraft, *, member_card: CardBuilder, channel_card: CardBuilder
    ) -> GradeResult:
        """In one transaction: log the grade (a member's earlier grade of the same round is
        kept in the log, marked replaced when ``draft.at``; the new grade takes its time,
        as it corrects the review made back then), then rebuild the member's card of the question
        from its grades with ``member_card`` and, for a round, the channel's card with
        ``channel_card`` from the grades of the channel's rounds of the question.

        With ``draft.closes_session``, that practice session is closed in the same
        transaction; raises :class:`SessionOver`, recording nothing, when it is closed
        already. With ``draft.rating``, that rating is recorded in the same transaction;
        raises :class:`RatedAlready`, recording nothing, when the interviewer had rated
        that interview. Concurrent grades of one round by one member each replace the one before:
        a single grade of the round stays current."""
        ...

    async def member_workspace(self, member_id: int) -> tuple[str, str] | None:
        """(platform, workspace) of the member; None for an unknown member."""
        ...

    async def rebuild_cards(
        self, platform: str, workspace: str, *, member_card: CardBuilder, channel_card: CardBuilder
    ) -> int:
        """Replay every stored card of the workspace's members and channels from its grades
        with these builders (one owner per transaction); how many cards were rebuilt."""
        ...

    async def member_cards(self, member_id: int) -> dict[int, MemoryCard]:
        """The member's cards by question id."""
        ...

    async def channel_cards(self, channel_id: int) -> dict[int, MemoryCard]: ...

    async def round_grades(self, round_id: int) -> dict[int, Grade]:
        """The current grade of each member (by member id) who graded the round."""
        ...

    async def grade_log(self, member_id: int) -> list[tuple[int, Grade, datetime, bool]]:
        """Every grade the member gave: (question id, grade, when reviewed, replaced), oldest
        first; a changed grade is dated at the review it corrects."""
        ...

    async def recent_grades(self, member_id: int, since: datetime, at: datetime) -> RecentGrades:
        """The member's first grade at or before ``at`` and how many grades they gave from
        ``since`` to ``at`` (both included), a changed grade counted once at the review it
        corrects, as in :meth:`grade_log`; without reading the whole log."""
        ...

    async def first_grades(self, member_id: int | None = None) -> list[FirstGradeCount]:
        """First sights (each member's first grade of each question they graded, as it
        stands now) per workspace and topic: the member's, with one row of no topic (and
        none graded) when they have none, so their workspace is known; with no member,
        every member's."""
        ...

    async def question_first_grades(self, member_id: int) -> dict[int, FirstGrades]:
        """First sights of each question by the members of the member's workspace (them
        included), as they stand now: what a question's difficulty is read from."""
        ...

    async def goal(self, member_id: int) -> date | None: ...

    async def set_goal(self, member_id: int, goal: date | None) -> None: ...
