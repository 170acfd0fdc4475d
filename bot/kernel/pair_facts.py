"""The mock-interview facts other features read (the learning loop records a rating,
``/quiz me`` shows the counts), kept here so they need not import the pairing feature."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PairRating:
    """An interviewer's rating of the mock interview they gave."""

    group_id: int
    interviewer_id: int
    candidate_id: int
    question_id: int
    score: int  # 1-4, as a peer review's
    covered: tuple[int, ...] | None  # 1-based key points the candidate covered


@dataclass(frozen=True, slots=True)
class PairCounts:
    """What ``/quiz me`` shows: mock interviews a member gave and took (rated ones)."""

    given: int
    taken: int
