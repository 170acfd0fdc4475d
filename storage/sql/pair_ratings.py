"""Recording an interviewer's rating of a mock interview, in the transaction of the grade
it gives the candidate (``LearningStore.record_grade`` with ``GradeDraft.rating``)."""

from __future__ import annotations

import json

from bot.kernel.pair_facts import PairRating
from storage.sql.session import Session

_INSERT_RATING = (
    "INSERT INTO pair_ratings (group_id, interviewer_id, candidate_id, question_id,"
    " score, covered, rated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (group_id, interviewer_id) DO NOTHING"
)


async def record_rating_in(session: Session, rating: PairRating, at: str) -> bool:
    """Record the rating in the open transaction; False, changing nothing, when the
    interviewer rated that group already."""
    changed = await session.execute(
        _INSERT_RATING,
        (
            rating.group_id,
            rating.interviewer_id,
            rating.candidate_id,
            rating.question_id,
            rating.score,
            None if rating.covered is None else json.dumps(list(rating.covered)),
            at,
        ),
    )
    return changed == 1
