"""The coach's readings of private practice answers, as the coach aggregate keeps them: the
answer's text (practice stores it nowhere else), and what the coach made of it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from bot.coach.verification import VerifiedTick
from bot.kernel.refs import ChannelRef, MemberRef


class ReadingState(StrEnum):
    """Where a practice reading stands (a stored value: never renamed)."""

    PENDING = "pending"  # queued, not read yet
    READY = "ready"  # read; its card waits for the session's outline
    SHOWN = "shown"  # its card is queued to the member
    UNAVAILABLE = "unavailable"
    OVER_BUDGET = "over_budget"
    ACCEPTED = "accepted"  # its proposed grade became the member's practice grade
    EDITED = "edited"  # the member's grade followed the ticks they kept
    DISMISSED = "dismissed"  # nothing recorded


@dataclass(frozen=True, slots=True)
class PracticeAnswer:
    """A practice session's answer to its question, to be read with ``model``."""

    session_id: int
    member_id: int
    model: str
    text: str
    at: datetime


@dataclass(frozen=True, slots=True)
class PracticeReading:
    """A practice answer the coach reads or read: where its card goes (the session's direct
    messages), whose budget it spends (the member's workspace) and what it found."""

    id: int
    session_id: int
    member_id: int
    author: MemberRef
    direct: ChannelRef
    question_id: int
    model: str
    text: str
    answered_at: datetime
    state: ReadingState
    key_points: int
    ticks: tuple[VerifiedTick, ...]
    dropped: int
    probe: str | None = None  # the coach's own follow-up, when it asked one


@dataclass(frozen=True, slots=True)
class ReadingOutcome:
    state: ReadingState
    at: datetime
    cache_key: str = ""
    key_points: int = 0
    ticks: tuple[VerifiedTick, ...] = ()
    dropped: int = 0
    tokens: int = 0


class PracticeReadings(Protocol):
    async def coach_on_for(self, member_id: int) -> bool:
        """Whether the member's workspace has a channel with the coach on."""
        ...

    async def queue_practice_reading(self, answer: PracticeAnswer) -> int | None:
        """Keep the answer to read; its reading's id, or None when the session's answer is
        kept already (a redelivered answer)."""
        ...

    async def practice_reading(self, reading_id: int) -> PracticeReading | None: ...

    async def practice_reading_of_session(
        self, session_id: int, model: str
    ) -> PracticeReading | None: ...

    async def record_practice_reading(
        self, reading_id: int, outcome: ReadingOutcome, *, requests: int
    ) -> PracticeReading | None:
        """Record what a pending reading came to, and what it spent (once: a reading not
        pending any more is left as it is); the reading as it is now."""
        ...

    async def mark_practice_shown(self, reading_id: int) -> bool:
        """A ready reading's card is queued; False when it was not ready any more."""
        ...

    async def decide_practice_reading(
        self, reading_id: int, state: ReadingState, at: datetime
    ) -> bool:
        """Record what the member did with a shown reading's card (accepted, edited or
        dismissed); False when it was not shown or is decided already (a second press)."""
        ...

    async def record_practice_probe(
        self, reading_id: int, probe: str | None, *, tokens: int, requests: int, at: datetime
    ) -> None:
        """Keep the probe the coach wrote (None: none) and what asking it spent."""
        ...

    async def refuses_probe(self, member_id: int) -> bool:
        """Whether the member turned the coach's follow-up off."""
        ...

    async def set_probe(self, member_id: int, on: bool, at: datetime) -> None: ...

    async def action_done(self, key: str) -> bool:
        """Whether the outbox action ``key`` was performed (its message posted)."""
        ...
