"""The ``SkippedDayStore`` port on both backends: each channel's skipped local dates,
stored as ISO text (so text order is date order)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from storage.sql.session import SqlDatabase
from storage.timestamps import to_db


class SkippedDays:
    """The channels' skipped days."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def skipped_days(
        self, channel_id: int, first: date, last: date | None = None
    ) -> list[date]:
        until = "" if last is None else " AND day <= ?"
        params = (channel_id, first.isoformat(), *(() if last is None else (last.isoformat(),)))
        rows = await self._db.fetch(
            f"SELECT day FROM skipped_days WHERE channel_id = ? AND day >= ?{until} ORDER BY day",
            params,
        )
        return [date.fromisoformat(row[0]) for row in rows]

    async def is_skipped(self, channel_id: int, day: date) -> bool:
        row = await self._db.fetch_one(
            "SELECT 1 FROM skipped_days WHERE channel_id = ? AND day = ?",
            (channel_id, day.isoformat()),
        )
        return row is not None

    async def skip_days(self, channel_id: int, days: Sequence[date], at: datetime) -> int:
        added = 0
        async with self._db.transaction() as session:
            for day in days:
                added += await session.execute(
                    "INSERT INTO skipped_days (channel_id, day, created_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (channel_id, day) DO NOTHING",
                    (channel_id, day.isoformat(), to_db(at)),
                )
        return added

    async def unskip_days(self, channel_id: int, days: Sequence[date]) -> int:
        if not days:
            return 0
        first, last = min(days), max(days)
        wanted = {day.isoformat() for day in days}
        async with self._db.transaction() as session:
            rows = await session.fetch(
                "SELECT day FROM skipped_days WHERE channel_id = ? AND day >= ? AND day <= ?",
                (channel_id, first.isoformat(), last.isoformat()),
            )
            removed = 0
            for row in rows:
                if row[0] in wanted:
                    removed += await session.execute(
                        "DELETE FROM skipped_days WHERE channel_id = ? AND day = ?",
                        (channel_id, row[0]),
                    )
        return removed
