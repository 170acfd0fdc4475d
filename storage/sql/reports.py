"""Leaderboards, member histories and channel statistics (the ``ReportStore`` port)."""

from __future__ import annotations

from datetime import datetime

from bot.kernel.models import (
    ChannelStats,
    LeaderboardRow,
    MemberHistory,
)
from storage.report_queries import CHANNEL_STATS, LEADERBOARD, MEMBER_STANDING
from storage.sql.session import SqlDatabase
from storage.timestamps import from_db, to_db


class Reports:
    """Read-only reports over every aggregate."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def leaderboard(
        self, channel_id: int, since: datetime | None, limit: int = 10
    ) -> list[LeaderboardRow]:
        floor = "" if since is None else to_db(since)  # every stored time sorts after ''
        rows = await self._db.fetch(
            LEADERBOARD, {"channel": channel_id, "since": floor, "limit": limit}
        )
        return [
            LeaderboardRow(
                rank=rank,
                member_id=row[0],
                member_name=row[1] or row[2],
                points=row[3],
                answers=row[4],
                quality_points=int(row[5]),
            )
            for rank, row in enumerate(rows, start=1)
        ]

    async def member_history(self, channel_id: int, member_id: int) -> MemberHistory:
        standing = await self._db.fetch_one(
            MEMBER_STANDING, {"channel": channel_id, "member": member_id, "since": ""}
        )
        topics = await self._db.fetch(
            "SELECT q.topic, COUNT(*) FROM answers a"
            " JOIN rounds r ON r.id = a.round_id JOIN questions q ON q.id = r.question_id"
            " WHERE a.channel_id = ? AND a.member_id = ? AND a.scoring = 1"
            " GROUP BY q.topic ORDER BY q.topic",
            (channel_id, member_id),
        )
        scheduled = await self._db.fetch(
            "SELECT id, scheduled_for, skipped_at FROM rounds WHERE channel_id = ?"
            " AND scheduled = 1 ORDER BY number",
            (channel_id,),
        )
        answered = await self._db.fetch(
            "SELECT DISTINCT round_id FROM answers WHERE channel_id = ? AND member_id = ?",
            (channel_id, member_id),
        )
        return MemberHistory(
            points=0 if standing is None else standing[0],
            answers=0 if standing is None else standing[1],
            rank=None if standing is None else standing[2],
            answers_per_topic={row[0]: row[1] for row in topics},
            scheduled_round_ids=tuple(row[0] for row in scheduled),
            answered_round_ids=frozenset(row[0] for row in answered),
            scheduled_round_times=tuple(from_db(row[1]) for row in scheduled),
            skipped_round_ids=frozenset(row[0] for row in scheduled if row[2] is not None),
        )

    async def channel_stats(self, channel_id: int) -> ChannelStats:
        row = await self._db.fetch_one(CHANNEL_STATS, {"channel": channel_id})
        assert row is not None  # a SELECT without FROM always yields one row
        return ChannelStats(
            rounds=row["rounds"],
            answers=row["answers"],
            members=row["members"],
            votes=row["votes"],
            revealed_rounds=row["revealed_rounds"],
            pending_actions=row["pending_actions"],
            failed_actions=row["failed_actions"],
        )
