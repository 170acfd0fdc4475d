"""Points follow quality, written once for both backends: an answer's key points judged
covered by someone other than its author, and its quality points kept up to date with them.

Every write that changes a judgement of an answer (a review written, replaced or removed;
the coach's ticks its author accepted) calls :func:`refresh_quality` in its own
transaction, so the answer's points never lag behind its judgements.
"""

from __future__ import annotations

import json

from bot.kernel.scoring import JudgedTicks, quality_points
from storage.sql.session import Session

# Teammates' ticks: the reviews of the answer by anyone but its author (the service refuses
# such a review; the store does not count one either), and those kept from reviewers who
# have since erased their data (storage.sql.erasure_for_the_team).
_REVIEWERS_TICKS = (
    "SELECT r.covered FROM answer_reviews r JOIN answers a ON a.id = r.answer_id"
    " WHERE r.answer_id = ? AND r.reviewer_id <> a.member_id AND r.covered IS NOT NULL"
    " UNION ALL SELECT kept_ticks FROM answers WHERE id = ? AND kept_ticks IS NOT NULL"
)


async def judged_ticks(session: Session, answer_id: int) -> JudgedTicks:
    """The key points of the answer that others judged it to cover."""
    rows = await session.fetch(_REVIEWERS_TICKS, (answer_id, answer_id))
    reviewers = frozenset(int(point) for row in rows for point in json.loads(row[0]))
    return JudgedTicks(
        reviewers=reviewers, accepted_coach=await accepted_coach_ticks(session, answer_id)
    )


async def accepted_coach_ticks(session: Session, answer_id: int) -> frozenset[int]:
    """The key points of the coach's verified ticks that the answer's author accepted (as
    they were, or edited: only the verified ones they kept count, never one they added).
    The acceptance's transaction calls :func:`refresh_quality` (``storage.sql.coach``)."""
    rows = await session.fetch(
        "SELECT accepted FROM coach_assessments WHERE answer_id = ?"
        " AND state IN ('accepted', 'edited') AND accepted IS NOT NULL",
        (answer_id,),
    )
    return frozenset(int(point) for row in rows for point in json.loads(row[0]))


async def refresh_quality(session: Session, answer_id: int, key_points: int) -> int:
    """Recompute the answer's quality points from its judgements (``key_points``: how many
    its question has) and keep its points in step; the quality points now. The answer's row
    is locked first, so judgements written at once each see the others' (PostgreSQL)."""
    changed = await session.execute(
        "UPDATE answers SET quality_points = quality_points WHERE id = ?", (answer_id,)
    )
    if not changed:
        return 0
    row = await session.fetch_one("SELECT base_points FROM answers WHERE id = ?", (answer_id,))
    assert row is not None  # locked above
    quality = quality_points(int(row[0]), await judged_ticks(session, answer_id), key_points)
    await session.execute(
        "UPDATE answers SET points = points - quality_points + ?, quality_points = ? WHERE id = ?",
        (quality, quality, answer_id),
    )
    return quality
