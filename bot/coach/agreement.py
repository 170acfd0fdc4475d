"""How far the coach agrees with teammates: per key point, over the answers both judged, the
share of the coach's verified ticks that reviewers ticked too (precision) and the share of
the reviewers' ticks the coach found (recall). The stand-in rule (issue #37, item 2) asks
for both at :data:`STAND_IN_PRECISION` and :data:`STAND_IN_RECALL` or more, measured on at
least :data:`STAND_IN_ANSWERS` answers, before the coach's ticks may stand in for a member
who never grades."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

STAND_IN_PRECISION = 0.7
STAND_IN_RECALL = 0.7
STAND_IN_ANSWERS = 20


@dataclass(frozen=True, slots=True)
class Agreement:
    answers: int  # judged by both
    precision: float | None  # None: the coach ticked nothing on them
    recall: float | None  # None: the reviewers ticked nothing on them

    @property
    def meets_the_stand_in_rule(self) -> bool:
        return (
            self.answers >= STAND_IN_ANSWERS
            and self.precision is not None
            and self.recall is not None
            and self.precision >= STAND_IN_PRECISION
            and self.recall >= STAND_IN_RECALL
        )


def agreement(judged: Iterable[tuple[frozenset[int], frozenset[int]]]) -> Agreement:
    """The agreement over ``judged``: each answer's (coach's ticks, reviewers' ticks)."""
    answers = both = coach = reviewers = 0
    for coach_ticks, reviewer_ticks in judged:
        answers += 1
        both += len(coach_ticks & reviewer_ticks)
        coach += len(coach_ticks)
        reviewers += len(reviewer_ticks)
    return Agreement(
        answers,
        both / coach if coach else None,
        both / reviewers if reviewers else None,
    )
