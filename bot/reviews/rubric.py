"""How ticks and review scores become grades.

A member who ticks the key points their answer covered gets the grade the share covered
proposes: every point is "nailed", at least three quarters "good", at least two fifths
"partly" (3 of 5, or 3 of 6), less "missed". A review scores an answer 1 to 4 on a rubric
that reads like the grades: 1 missed the point, 2 partly, 3 solid, 4 interview-ready.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from bot.kernel.grades import Grade

GOOD_SHARE = 0.75
PARTLY_SHARE = 0.4
SCORES = {1: "missed the point", 2: "partly", 3: "solid", 4: "interview-ready"}
SCORE_GRADES = {1: Grade.MISSED, 2: Grade.PARTLY, 3: Grade.GOOD, 4: Grade.NAILED}


def grade_from_coverage(
    covered: int, total: int, *, good: float = GOOD_SHARE, partly: float = PARTLY_SHARE
) -> Grade:
    """The grade ``covered`` of ``total`` key points propose (``good`` and ``partly``: the
    shares those grades need; the shipped ones unless a bench tries others)."""
    if total <= 0:
        raise ValueError("a question without key points has no checklist")
    share = covered / total
    if covered >= total:
        return Grade.NAILED
    if share >= good:
        return Grade.GOOD
    if share >= partly:
        return Grade.PARTLY
    return Grade.MISSED


def why(covered: int, total: int) -> str:
    """ "3 of 5 key points: partly"."""
    return f"{covered} of {total} key points: {grade_from_coverage(covered, total).word}"


def grade_of_reviews(scores: Sequence[int]) -> Grade:
    """The grade the median of an answer's review scores stands for (the lower middle one
    of an even count: a reviewer's doubt is not rounded up)."""
    return SCORE_GRADES[statistics.median_low(scores)]


def score_label(score: int) -> str:
    """``3 (solid)``."""
    return f"{score} ({SCORES[score]})"
