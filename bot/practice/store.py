"""The practice aggregate's seam: each member's private practice sessions.

A member has at most one open session (``closed_at`` unset); a session walks one question
like an interview: the question, each follow-up after the previous answer, the outline,
the grade.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from bot.kernel.models import Delivery
from bot.kernel.refs import ChannelRef
from questions.pack import Difficulty


class PracticeState(StrEnum):
    """What an open session waits for."""

    ANSWER = "answer"  # an answer to the question or to the follow-up just asked
    GRADE = "grade"  # the member's grade of their answers against the outline


@dataclass(frozen=True, slots=True)
class PracticeSession:
    """A member's private practice of one question in their DMs, and how far it got."""

    id: int
    member_id: int
    direct: ChannelRef  # the member's DM channel with the bot
    question_id: int
    topic: str | None  # the topic asked for; "Next question" keeps it
    answers: int  # answers received so far (0: the question is asked)
    state: PracticeState
    started_at: datetime
    touched_at: datetime  # the last step; the session expires a day after it
    difficulty: Difficulty | None = None  # the difficulty asked for; "Next question" keeps it
    hints: int = 0  # key points revealed by Hint; after one, the best grade is "good"
    time_limit_minutes: int | None = None  # timed practice: the time to answer the question
    timed_out: bool = False  # the time ran out before an answer: it moved on without one

    @property
    def deadline(self) -> datetime | None:
        """When a timed session's question must be answered by; None: untimed."""
        if self.time_limit_minutes is None:
            return None
        return self.started_at + timedelta(minutes=self.time_limit_minutes)


@dataclass(frozen=True, slots=True)
class PracticeDraft:
    """A practice session to open for a member."""

    member_id: int
    direct: ChannelRef
    question_id: int
    topic: str | None
    at: datetime
    difficulty: Difficulty | None = None  # None: any
    time_limit_minutes: int | None = None  # None: untimed


class PracticeStore(Protocol):
    """Persistence of practice sessions. Every write is committed before the call returns."""

    async def open_session(self, member_id: int) -> PracticeSession | None:
        """The member's open session, if any (expired or not: the caller decides)."""
        ...

    async def open_session_in(self, direct: ChannelRef) -> PracticeSession | None:
        """The open session of the DM channel ``direct`` (its platform and channel id: a
        DM on Discord belongs to no guild), if any."""
        ...

    async def session(self, session_id: int) -> PracticeSession | None:
        """A session by id, open or closed."""
        ...

    async def start_session(self, draft: PracticeDraft) -> PracticeSession | None:
        """Open a session; None (nothing written) when the member already has one open."""
        ...

    async def take_hint(self, session_id: int, at: datetime) -> int | None:
        """Count one more hint taken in the open session; the count after it, or None when
        the session is closed."""
        ...

    async def advance(
        self,
        session_id: int,
        answers: int,
        state: PracticeState,
        at: datetime,
        *,
        delivery: Delivery | None = None,
    ) -> bool:
        """Record one more answer (``answers`` is the count before it) and the new state;
        False when the session moved on or closed meanwhile (a racing answer).

        ``delivery``, the answer's event id, is kept in the same transaction when the
        session moved on (and only then); raises :class:`~bot.kernel.errors.DuplicateDelivery`,
        changing nothing, when it was kept before."""
        ...

    async def run_out(self, session_id: int, state: PracticeState, at: datetime) -> bool:
        """A timed session's time ran out with its question unanswered: it moves on (to
        the first follow-up, or ``state``) as if answered, marked as timed out; False when
        an answer came first or the session closed."""
        ...

    async def close_session(self, session_id: int, reason: str, at: datetime) -> bool:
        """Close an open session ("graded", "stopped", "expired"); False if it was closed."""
        ...
