"""The ``DashboardStore`` port on both backends: members who share their rows with the
lead, and the lead's page's own figures, each one grouped query (by day, by question)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from datetime import date, datetime

from bot.dashboard.store import (
    CardFigures,
    DailyCounts,
    GradeDisagreement,
    PairRatingRow,
    QuestionGrades,
)
from storage.sql.session import Row, SqlDatabase
from storage.timestamps import from_db, to_db

_DAY = "substr({column}, 1, 10)"  # the UTC day of a stored timestamp (fixed-width ISO text)

# one (day, kind, count) row per day and kind: the four kinds in one round trip
_DAILY = f"""
SELECT {_DAY.format(column="answered_at")}, 'answers', COUNT(*) FROM answers
 WHERE channel_id = ? AND scoring = 1 AND answered_at >= ? GROUP BY 1
UNION ALL
SELECT {_DAY.format(column="graded_at")}, 'grades', COUNT(*) FROM grades
 WHERE channel_id = ? AND round_id IS NOT NULL AND replaced_at IS NULL AND source = 'self'
   AND graded_at >= ? GROUP BY 1
UNION ALL
SELECT {_DAY.format(column="reviewed_at")}, 'reviews', COUNT(*) FROM answer_reviews
 WHERE channel_id = ? AND reviewed_at >= ? GROUP BY 1
UNION ALL
SELECT {_DAY.format(column="graded_at")}, 'practice', COUNT(*) FROM grades
 WHERE round_id IS NULL AND replaced_at IS NULL AND graded_at >= ?
   AND member_id IN (SELECT DISTINCT member_id FROM answers WHERE channel_id = ?) GROUP BY 1
"""


class Dashboard:
    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def sharing(self, channel_id: int) -> frozenset[int]:
        rows = await self._db.fetch(
            "SELECT member_id FROM dashboard_shares WHERE channel_id = ?", (channel_id,)
        )
        return frozenset(int(row[0]) for row in rows)

    async def set_sharing(self, channel_id: int, member_id: int, on: bool, at: datetime) -> bool:
        async with self._db.transaction() as session:
            found = await session.fetch_one(
                "SELECT 1 FROM dashboard_shares WHERE channel_id = ? AND member_id = ?",
                (channel_id, member_id),
            )
            if (found is not None) == on:
                return False
            if on:
                await session.execute(
                    "INSERT INTO dashboard_shares (channel_id, member_id, shared_at)"
                    " VALUES (?, ?, ?) ON CONFLICT (channel_id, member_id) DO NOTHING",
                    (channel_id, member_id, to_db(at)),
                )
            else:
                await session.execute(
                    "DELETE FROM dashboard_shares WHERE channel_id = ? AND member_id = ?",
                    (channel_id, member_id),
                )
            return True

    async def daily_counts(self, channel_id: int, since: datetime) -> list[DailyCounts]:
        start = to_db(since)
        rows = await self._db.fetch(
            _DAILY,
            (channel_id, start, channel_id, start, channel_id, start, start, channel_id),
        )
        per_day: dict[str, dict[str, int]] = {}
        for day, kind, count in rows:
            per_day.setdefault(str(day), {})[str(kind)] = int(count)
        return [
            DailyCounts(date.fromisoformat(day), **counts)
            for day, counts in sorted(per_day.items())
        ]

    async def question_grades(self, channel_id: int) -> list[QuestionGrades]:
        rows = await self._db.fetch(
            "SELECT question_id, COUNT(*),"
            " SUM(CASE WHEN rating >= 3 THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN rating = 1 THEN 1 ELSE 0 END)"
            " FROM grades WHERE channel_id = ? AND round_id IS NOT NULL"
            " AND replaced_at IS NULL AND source = 'self' GROUP BY question_id",
            (channel_id,),
        )
        return [
            QuestionGrades(int(q), int(n), int(good), int(missed)) for q, n, good, missed in rows
        ]

    async def reviewed_ticks(self, channel_id: int) -> dict[int, set[int]]:
        rows = await self._db.fetch(
            "SELECT r.question_id, ar.covered FROM answer_reviews ar"
            " JOIN rounds r ON r.id = ar.round_id WHERE ar.channel_id = ?",
            (channel_id,),
        )
        ticks: dict[int, set[int]] = {}
        for question_id, covered in rows:
            found = ticks.setdefault(int(question_id), set())
            if covered:
                found.update(int(point) for point in json.loads(covered))
        return ticks

    async def grade_disagreements(self, channel_id: int) -> list[GradeDisagreement]:
        rows = await self._db.fetch(
            "SELECT g.round_id, g.question_id, g.member_id, g.rating, ar.score"
            " FROM grades g"
            " JOIN answers a ON a.round_id = g.round_id AND a.member_id = g.member_id"
            "  AND a.scoring = 1"
            " JOIN answer_reviews ar ON ar.answer_id = a.id"
            " WHERE g.channel_id = ? AND g.round_id IS NOT NULL AND g.replaced_at IS NULL"
            " AND g.source = 'self' ORDER BY g.round_id, g.member_id",
            (channel_id,),
        )
        grouped: dict[tuple[int, int], tuple[int, int, list[int]]] = {}
        for round_id, question_id, member_id, own, score in rows:
            key = (int(round_id), int(member_id))
            grouped.setdefault(key, (int(question_id), int(own), []))[2].append(int(score))
        return [
            GradeDisagreement(round_id, question_id, member_id, own, tuple(scores))
            for (round_id, member_id), (question_id, own, scores) in grouped.items()
        ]

    async def channel_members(self, channel_id: int) -> Sequence[tuple[int, str]]:
        rows = await self._db.fetch(
            "SELECT m.id, m.display_name, m.member FROM members m"
            " WHERE m.id IN (SELECT DISTINCT member_id FROM answers WHERE channel_id = ?)"
            " ORDER BY m.id",
            (channel_id,),
        )
        return [(int(row[0]), str(row[1] or row[2])) for row in rows]

    async def channel_card_figures(self, channel_id: int) -> dict[int, list[CardFigures]]:
        rows = await self._db.fetch(
            "SELECT member_id, question_id, stability, last_review FROM member_cards"
            " WHERE member_id IN (SELECT DISTINCT member_id FROM answers WHERE channel_id = ?)",
            (channel_id,),
        )
        # thousands of cards take milliseconds to read: not on the event loop
        return await asyncio.to_thread(_figures_by_member, rows)

    async def pair_ratings(self, channel_id: int) -> list[PairRatingRow]:
        rows = await self._db.fetch(
            "SELECT g.week, r.interviewer_id, r.candidate_id, r.score FROM pair_ratings r"
            " JOIN pair_groups g ON g.id = r.group_id WHERE g.channel_id = ?"
            " ORDER BY g.week DESC, r.rated_at DESC",
            (channel_id,),
        )
        return [PairRatingRow(str(w), int(i), int(c), int(s)) for w, i, c, s in rows]

    async def pair_groups_held(self, channel_id: int) -> list[tuple[str, int]]:
        rows = await self._db.fetch(
            "SELECT week, COUNT(*) FROM pair_groups WHERE channel_id = ?"
            " GROUP BY week ORDER BY week DESC",
            (channel_id,),
        )
        return [(str(week), int(count)) for week, count in rows]


def _figures_by_member(rows: Sequence[Row]) -> dict[int, list[CardFigures]]:
    figures: dict[int, list[CardFigures]] = {}
    for member_id, question_id, stability, last_review in rows:
        figures.setdefault(int(member_id), []).append(
            CardFigures(int(question_id), float(stability), from_db(last_review))
        )
    return figures
