"""The ``SeasonStore`` port on both backends: seasons with their champions, and the
aggregates the standings rank (summed by the database, never an answer loaded)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from bot.kernel.grades import Grade
from bot.kernel.models import ActionKind
from bot.seasons.store import (
    Champion,
    MemberTitle,
    MemberTotal,
    SeasonRecord,
    Title,
    in_order,
)
from storage.sql.in_batches import in_batches
from storage.sql.session import Row, SqlDatabase
from storage.timestamps import from_db, to_db

# What the leaderboard counts (storage/report_queries.py), bounded on both sides; each
# table summed per member along its index first.
POINTS_BETWEEN = """
SELECT e.member_id, m.display_name, m.member, SUM(e.points) AS total
FROM (
    SELECT member_id, SUM(points) AS points FROM answers
    WHERE channel_id = :channel AND answered_at >= :start AND answered_at < :end
    GROUP BY member_id
    UNION ALL
    SELECT member_id, SUM(points) FROM bonuses
    WHERE channel_id = :channel AND awarded_at >= :start AND awarded_at < :end
    GROUP BY member_id
    UNION ALL
    SELECT reviewer_id, SUM(points) FROM answer_reviews
    WHERE channel_id = :channel AND reviewed_at >= :start AND reviewed_at < :end
      AND points > 0
    GROUP BY reviewer_id
) AS e
JOIN members m ON m.id = e.member_id
GROUP BY e.member_id, m.display_name, m.member
HAVING SUM(e.points) > 0
ORDER BY total DESC, e.member_id
"""

# A review agrees when its score is the author's own current grade of the round.
HELPFUL_BETWEEN = """
SELECT v.reviewer_id, m.display_name, m.member, COUNT(*) AS total
FROM answer_reviews v
JOIN answers a ON a.id = v.answer_id
JOIN grades g ON g.round_id = v.round_id AND g.member_id = a.member_id
    AND g.replaced_at IS NULL AND g.source = 'self'
JOIN members m ON m.id = v.reviewer_id
WHERE v.channel_id = :channel AND v.reviewed_at >= :start AND v.reviewed_at < :end
  AND v.score = g.rating
GROUP BY v.reviewer_id, m.display_name, m.member
ORDER BY total DESC, v.reviewer_id
"""

REVIEWERS_BETWEEN = """
SELECT v.reviewer_id, m.display_name, m.member, COUNT(*) AS total
FROM answer_reviews v JOIN members m ON m.id = v.reviewer_id
WHERE v.channel_id = :channel AND v.reviewed_at >= :start AND v.reviewed_at < :end
GROUP BY v.reviewer_id, m.display_name, m.member
ORDER BY total DESC, v.reviewer_id
"""

_SEASON_COLUMNS = "id, channel_id, season, starts_at, ends_at, outbox_key"
_CHAMPIONS = (
    "SELECT c.season_id, c.title, c.member_id, m.display_name, m.member, c.score"
    " FROM season_champions c JOIN members m ON m.id = c.member_id"
)


class Seasons:
    """``SeasonStore`` on a store's database (either backend)."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def record_season(self, record: SeasonRecord, round_id: int, at: datetime) -> bool:
        now = to_db(at)
        async with self._db.transaction() as session:
            rows = await session.fetch(
                "INSERT INTO seasons (channel_id, season, starts_at, ends_at, outbox_key,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                (
                    record.channel_id,
                    record.season,
                    to_db(record.starts_at),
                    to_db(record.ends_at),
                    record.key,
                    now,
                ),
            )
            if not rows:
                return False
            season_id = rows[0][0]
            for champion in record.champions:
                await session.execute(
                    "INSERT INTO season_champions (season_id, title, member_id, score)"
                    " VALUES (?, ?, ?, ?)",
                    (season_id, champion.title.value, champion.member_id, champion.score),
                )
            await session.execute(
                "INSERT INTO outbox (round_id, kind, key, state, attempts, next_attempt_at,"
                " created_at, updated_at) VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)",
                (round_id, ActionKind.SEASON.value, record.key, now, now, now),
            )
        return True

    async def season_by_key(self, key: str) -> SeasonRecord | None:
        rows = await self._db.fetch(
            f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE outbox_key = ?", (key,)
        )
        found = await self._with_champions(rows)
        return found[0] if found else None

    async def seasons(self, channel_id: int) -> list[SeasonRecord]:
        rows = await self._db.fetch(
            f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE channel_id = ? ORDER BY starts_at DESC",
            (channel_id,),
        )
        return await self._with_champions(rows)

    async def _with_champions(self, rows: list[Row]) -> list[SeasonRecord]:
        if not rows:
            return []
        champions: dict[int, list[Champion]] = {}
        for chunk, marks in in_batches([row[0] for row in rows]):
            for c in await self._db.fetch(
                f"{_CHAMPIONS} WHERE c.season_id IN ({marks})", tuple(chunk)
            ):
                champions.setdefault(c[0], []).append(
                    Champion(Title(c[1]), c[2], c[3] or c[4], float(c[5]))
                )
        return [
            SeasonRecord(
                channel_id=row[1],
                season=row[2],
                starts_at=from_db(row[3]),
                ends_at=from_db(row[4]),
                key=row[5],
                champions=in_order(champions.get(row[0], [])),
            )
            for row in rows
        ]

    async def last_round_in_season(
        self, channel_id: int, start: datetime, end: datetime
    ) -> int | None:
        rows = await self._db.fetch(
            "SELECT id FROM rounds WHERE channel_id = ? AND scheduled_for >= ?"
            " AND scheduled_for < ? ORDER BY scheduled_for DESC LIMIT 1",
            (channel_id, to_db(start), to_db(end)),
        )
        return int(rows[0][0]) if rows else None

    async def unposted_with_rounds(
        self, channel_ids: Collection[int], season: str, start: datetime, end: datetime
    ) -> set[int]:
        found: set[int] = set()
        for chunk, marks in in_batches(list(channel_ids)):
            rows = await self._db.fetch(
                "SELECT DISTINCT r.channel_id FROM rounds r"
                f" WHERE r.channel_id IN ({marks})"
                " AND r.scheduled_for >= ? AND r.scheduled_for < ?"
                " AND NOT EXISTS (SELECT 1 FROM seasons s"
                " WHERE s.channel_id = r.channel_id AND s.season = ?)",
                (*chunk, to_db(start), to_db(end), season),
            )
            found.update(int(row[0]) for row in rows)
        return found

    async def points_between(
        self, channel_id: int, start: datetime, end: datetime
    ) -> list[MemberTotal]:
        return await self._totals(POINTS_BETWEEN, channel_id, start, end)

    async def helpful_reviews_between(
        self, channel_id: int, start: datetime, end: datetime
    ) -> list[MemberTotal]:
        return await self._totals(HELPFUL_BETWEEN, channel_id, start, end)

    async def reviewers_between(
        self, channel_id: int, start: datetime, end: datetime
    ) -> list[MemberTotal]:
        return await self._totals(REVIEWERS_BETWEEN, channel_id, start, end)

    async def _totals(
        self, sql: str, channel_id: int, start: datetime, end: datetime
    ) -> list[MemberTotal]:
        rows = await self._db.fetch(
            sql, {"channel": channel_id, "start": to_db(start), "end": to_db(end)}
        )
        return [MemberTotal(row[0], row[1] or row[2], row[2], int(row[3])) for row in rows]

    async def grade_logs(
        self, member_ids: Collection[int], until: datetime
    ) -> dict[int, list[tuple[int, Grade, datetime]]]:
        logs: dict[int, list[tuple[int, Grade, datetime]]] = {m: [] for m in member_ids}
        for chunk, marks in in_batches(list(member_ids)):
            rows = await self._db.fetch(
                "SELECT member_id, question_id, rating, graded_at FROM grades"
                f" WHERE member_id IN ({marks}) AND replaced_at IS NULL AND graded_at < ?"
                " ORDER BY member_id, graded_at, id",
                (*chunk, to_db(until)),
            )
            for member_id, question_id, rating, graded_at in rows:
                logs[member_id].append((question_id, Grade(rating), from_db(graded_at)))
        return logs

    async def member_titles(self, member_id: int) -> list[MemberTitle]:
        rows = await self._db.fetch(
            "SELECT s.channel_id, ch.name, ch.channel, s.season, c.title, c.score"
            " FROM season_champions c JOIN seasons s ON s.id = c.season_id"
            " JOIN channels ch ON ch.id = s.channel_id"
            " WHERE c.member_id = ? ORDER BY s.starts_at DESC, s.channel_id, c.title",
            (member_id,),
        )
        return [
            MemberTitle(row[0], row[1] or row[2], row[3], Title(row[4]), float(row[5]))
            for row in rows
        ]
