"""What an erasure leaves the teammates who stay, inside the erasing transaction.

A review a teammate wrote of the member's answer earned its writer points; the answer
goes, so the review's points become a bonus of its writer, on the same channel and at the
review's time: every leaderboard (all time, this week) counts them as before, and nothing
of the review (its score, comment, or which answer it was) stays. The other way round, the
key points the member's reviews ticked in a teammate's answer stay that answer's
(``answers.kept_ticks``, naming no one), so its points for quality stay as they were and
later reviews add to them.

A mock interview's group stays in the partners' history with the member replaced by the
workspace's *former member*: a members row with no platform id and no name, which no
event can ever name again, so the partners see "a former member" and a member who comes
back is not linked to their past. The briefs and ratings that were the partners' (the
question a partner was interviewed on, the rating the member gave them) stay, naming the
former member; those that were the member's go.
"""

from __future__ import annotations

import json

from storage.sql.session import Session

REVIEW_CREDIT = "review of a former member's answer"
FORMER_MEMBER = ""  # the platform id of the former-member row (no platform id is empty)

_REVIEWS_OF_THEIR_ANSWERS = (
    "SELECT channel_id, reviewer_id, points, reviewed_at FROM answer_reviews"
    " WHERE points > 0 AND answer_id IN (SELECT id FROM answers WHERE member_id = ?)"
)


async def keep_review_points(session: Session, member_id: int) -> int:
    """Turn the points earned reviewing the member's answers into their writers' bonuses;
    how many reviews did."""
    earned = await session.fetch(_REVIEWS_OF_THEIR_ANSWERS, (member_id,))
    await session.execute_many(
        "INSERT INTO bonuses (channel_id, member_id, points, reason, awarded_at)"
        " VALUES (?, ?, ?, ?, ?)",
        [(row[0], row[1], row[2], REVIEW_CREDIT, row[3]) for row in earned],
    )
    return len(earned)


_TICKS_OF_THEIR_REVIEWS = (
    "SELECT a.id, a.kept_ticks, r.covered FROM answer_reviews r"
    " JOIN answers a ON a.id = r.answer_id"
    " WHERE r.reviewer_id = ? AND r.covered IS NOT NULL AND a.member_id <> r.reviewer_id"
)


async def keep_review_ticks(session: Session, member_id: int) -> int:
    """Keep the key points the member's reviews ticked with the answers they reviewed;
    how many answers keep some."""
    rows = await session.fetch(_TICKS_OF_THEIR_REVIEWS, (member_id,))
    kept = [
        (json.dumps(sorted({*json.loads(row[1] or "[]"), *json.loads(row[2])})), row[0])
        for row in rows
    ]
    await session.execute_many("UPDATE answers SET kept_ticks = ? WHERE id = ?", kept)
    return len(kept)


async def former_member(session: Session, member_id: int) -> int:
    """The id of the former-member row of the member's workspace (made once)."""
    await session.execute(
        "INSERT INTO members (platform, workspace, member, display_name)"
        " SELECT platform, workspace, ?, '' FROM members WHERE id = ?"
        " ON CONFLICT (platform, workspace, member) DO NOTHING",
        (FORMER_MEMBER, member_id),
    )
    row = await session.fetch_one(
        "SELECT f.id FROM members f JOIN members m"
        " ON m.platform = f.platform AND m.workspace = f.workspace"
        " WHERE m.id = ? AND f.member = ?",
        (member_id, FORMER_MEMBER),
    )
    assert row is not None  # inserted above, or there before
    return int(row[0])


async def keep_pair_history(session: Session, member_id: int, former: int) -> dict[str, int]:
    """Put ``former`` in the member's place in every mock-interview group, brief and rating
    that was a partner's; delete the member's own. Rows deleted per table."""
    rows = await session.fetch("SELECT id, members FROM pair_groups", ())
    for row in rows:
        members = json.loads(str(row[1]))
        if member_id in members:
            kept = [former if m == member_id else m for m in members]
            await session.execute(
                "UPDATE pair_groups SET members = ? WHERE id = ?", (json.dumps(kept), row[0])
            )
    deleted = {
        "pair_briefs": await session.execute(
            "DELETE FROM pair_briefs WHERE candidate_id = ?", (member_id,)
        ),
        "pair_ratings": await session.execute(
            "DELETE FROM pair_ratings WHERE candidate_id = ?", (member_id,)
        ),
    }
    await session.execute(
        "UPDATE pair_briefs SET interviewer_id = ? WHERE interviewer_id = ?", (former, member_id)
    )
    # a rating is once per (group, interviewer): two members of a group erased, the second
    # rating has no place left and goes
    await session.execute(
        "UPDATE pair_ratings SET interviewer_id = ? WHERE interviewer_id = ? AND NOT EXISTS"
        " (SELECT 1 FROM pair_ratings o WHERE o.group_id = pair_ratings.group_id"
        " AND o.interviewer_id = ?)",
        (former, member_id, former),
    )
    deleted["pair_ratings"] += await session.execute(
        "DELETE FROM pair_ratings WHERE interviewer_id = ?", (member_id,)
    )
    return deleted
