"""The ``ReviewStore`` port on both backends, on the store's database object."""

from __future__ import annotations

import json
from datetime import datetime

from bot.kernel.models import AnswerRecord, OutboxDraft
from bot.kernel.refs import MemberRef
from bot.reviews.store import (
    BestAnswer,
    ReviewDraft,
    ReviewedAnswer,
    ReviewResult,
    StoredReview,
    TellAuthor,
)
from storage.records import ANSWER_COLUMNS, answer_from_row
from storage.sql.outbox import queue_in
from storage.sql.quality import refresh_quality
from storage.sql.session import Row, SqlDatabase
from storage.timestamps import from_db, to_db

_REVIEW_COLUMNS = (
    "r.id, r.answer_id, r.reviewer_id, m.display_name, r.score, r.covered, r.comment,"
    " r.points, r.reviewed_at"
)
_REVIEWS = f"SELECT {_REVIEW_COLUMNS} FROM answer_reviews r JOIN members m ON m.id = r.reviewer_id"


class Reviews:
    """Members' reviews of each other's answers, and each round's best answer."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def record_review(
        self,
        draft: ReviewDraft,
        *,
        points: int,
        cap: int,
        key_points: int,
        tell: TellAuthor | None = None,
    ) -> ReviewResult:
        covered = None if draft.covered is None else json.dumps(list(draft.covered))
        at = to_db(draft.at)
        async with self._db.transaction() as session:
            # One reviewer's reviews are written one after the other: on PostgreSQL, two
            # at once would each count the points before the other's (both past the cap) or
            # both insert the same review. Writing the reviewer's row takes its lock until
            # commit (SQLite's transactions are serial already; the write changes nothing).
            await session.execute("UPDATE members SET id = id WHERE id = ?", (draft.reviewer_id,))
            changed = await session.execute(
                "UPDATE answer_reviews SET score = ?, covered = ?, comment = ?, reviewed_at = ?"
                " WHERE answer_id = ? AND reviewer_id = ?",
                (draft.score, covered, draft.comment, at, draft.answer_id, draft.reviewer_id),
            )
            if not changed:
                earned = await session.fetch_one(
                    "SELECT COUNT(*) FROM answer_reviews"
                    " WHERE round_id = ? AND reviewer_id = ? AND points > 0",
                    (draft.round_id, draft.reviewer_id),
                )
                granted = points if earned is not None and earned[0] < cap else 0
                await session.execute(
                    "INSERT INTO answer_reviews (answer_id, round_id, channel_id, reviewer_id,"
                    " score, covered, comment, points, reviewed_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        draft.answer_id,
                        draft.round_id,
                        draft.channel_id,
                        draft.reviewer_id,
                        draft.score,
                        covered,
                        draft.comment,
                        granted,
                        at,
                    ),
                )
            await refresh_quality(session, draft.answer_id, key_points)
            row = await session.fetch_one(
                f"{_REVIEWS} WHERE r.answer_id = ? AND r.reviewer_id = ?",
                (draft.answer_id, draft.reviewer_id),
            )
            assert row is not None  # written in this transaction
            review = _review(row)
            if tell is not None:
                await queue_in(session, [tell(review)], at)
        return ReviewResult(review, replaced=bool(changed))

    async def remove_review(self, answer_id: int, reviewer_id: int, key_points: int) -> bool:
        async with self._db.transaction() as session:
            removed = await session.execute(
                "DELETE FROM answer_reviews WHERE answer_id = ? AND reviewer_id = ?",
                (answer_id, reviewer_id),
            )
            if removed:
                await refresh_quality(session, answer_id, key_points)
        return removed == 1

    async def answer_reviews(self, answer_id: int) -> list[StoredReview]:
        rows = await self._db.fetch(
            f"{_REVIEWS} WHERE r.answer_id = ? ORDER BY r.reviewed_at, r.id", (answer_id,)
        )
        return [_review(row) for row in rows]

    async def reviewed_answers(self, member_id: int) -> list[ReviewedAnswer]:
        rows = await self._db.fetch(
            "SELECT a.id, a.round_id, r.score,"
            " (SELECT g.rating FROM grades g WHERE g.round_id = a.round_id"
            "  AND g.member_id = a.member_id AND g.replaced_at IS NULL AND g.source = 'self')"
            " FROM answer_reviews r JOIN answers a ON a.id = r.answer_id"
            " WHERE a.member_id = ? ORDER BY a.answered_at, a.id, r.id",
            (member_id,),
        )
        by_answer: dict[int, tuple[int, int | None, list[int]]] = {}
        for answer_id, round_id, score, own in rows:
            by_answer.setdefault(answer_id, (round_id, own, []))[2].append(score)
        return [
            ReviewedAnswer(round_id, own, tuple(scores))
            for round_id, own, scores in by_answer.values()
        ]

    async def member_ref(self, member_id: int) -> MemberRef | None:
        row = await self._db.fetch_one(
            "SELECT platform, workspace, member, display_name FROM members WHERE id = ?",
            (member_id,),
        )
        return None if row is None else MemberRef(row[0], row[1], row[2], row[3])

    async def mark_best(self, round_id: int, best: BestAnswer, post: OutboxDraft) -> bool:
        at = to_db(best.marked_at)
        async with self._db.transaction() as session:
            changed = await session.execute(
                "INSERT INTO best_answers (round_id, answer_id, marked_at) VALUES (?, ?, ?)"
                " ON CONFLICT (round_id) DO UPDATE"
                " SET answer_id = excluded.answer_id, marked_at = excluded.marked_at"
                " WHERE best_answers.answer_id <> excluded.answer_id",
                (round_id, best.answer_id, at),
            )
            if changed:
                await queue_in(session, [post], at)
        return bool(changed)

    async def best_answer(self, round_id: int) -> BestAnswer | None:
        row = await self._db.fetch_one(
            "SELECT answer_id, marked_at FROM best_answers WHERE round_id = ?", (round_id,)
        )
        return None if row is None else BestAnswer(int(row[0]), from_db(row[1]))

    async def best_answers(
        self, channel_id: int, since: datetime, until: datetime
    ) -> list[AnswerRecord]:
        rows = await self._db.fetch(
            f"SELECT {ANSWER_COLUMNS} FROM best_answers b JOIN answers a ON a.id = b.answer_id"
            " JOIN members m ON m.id = a.member_id JOIN rounds rd ON rd.id = b.round_id"
            " WHERE rd.channel_id = ? AND b.marked_at >= ? AND b.marked_at < ?"
            " ORDER BY rd.number",
            (channel_id, to_db(since), to_db(until)),
        )
        return [answer_from_row(row) for row in rows]


def _review(row: Row) -> StoredReview:
    covered = row[5]
    return StoredReview(
        id=row[0],
        answer_id=row[1],
        reviewer_id=row[2],
        reviewer_name=row[3],
        score=row[4],
        covered=None if covered is None else tuple(json.loads(covered)),
        comment=row[6],
        points=row[7],
        reviewed_at=from_db(row[8]),
    )
