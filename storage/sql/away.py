"""The ``AwayStore`` port on both backends: members' away periods, with ISO dates as
text (so text order is date order)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date, datetime, timedelta

from bot.away.periods import AwayPeriod
from storage.sql.in_batches import in_batches
from storage.sql.session import SqlDatabase
from storage.timestamps import to_db

_DAY = timedelta(days=1)


class Away:
    """Members' periods away."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def until(self, workspace_id: str, member_id: str) -> date | None:
        row = await self._db.fetch_one(
            "SELECT MAX(last_day) FROM away_periods WHERE workspace = ? AND member = ?",
            (workspace_id, member_id),
        )
        return None if row is None or row[0] is None else date.fromisoformat(row[0])

    async def set(
        self, workspace_id: str, member_id: str, first: date, last: date, at: datetime
    ) -> None:
        stamp = to_db(at)
        async with self._db.transaction() as session:
            running = await session.fetch_one(
                "SELECT id, first_day FROM away_periods"
                " WHERE workspace = ? AND member = ? AND last_day >= ?"
                " ORDER BY first_day LIMIT 1",
                (workspace_id, member_id, (first - _DAY).isoformat()),
            )
            if running is None:
                await session.execute(
                    "INSERT INTO away_periods"
                    " (workspace, member, first_day, last_day, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (workspace_id, member_id, first.isoformat(), last.isoformat(), stamp, stamp),
                )
                return
            began = min(date.fromisoformat(running[1]), first)
            await session.execute(
                "UPDATE away_periods SET first_day = ?, last_day = ?, updated_at = ? WHERE id = ?",
                (began.isoformat(), last.isoformat(), stamp, running[0]),
            )

    async def clear(self, workspace_id: str, member_id: str, today: date, at: datetime) -> bool:
        async with self._db.transaction() as session:
            rows = await session.fetch(
                "SELECT id, first_day FROM away_periods"
                " WHERE workspace = ? AND member = ? AND last_day >= ?",
                (workspace_id, member_id, today.isoformat()),
            )
            for period_id, first_day in rows:
                if first_day >= today.isoformat():
                    await session.execute("DELETE FROM away_periods WHERE id = ?", (period_id,))
                else:
                    await session.execute(
                        "UPDATE away_periods SET last_day = ?, updated_at = ? WHERE id = ?",
                        ((today - _DAY).isoformat(), to_db(at), period_id),
                    )
            return bool(rows)

    async def periods(
        self, workspace_id: str, member_ids: Collection[str]
    ) -> dict[str, list[AwayPeriod]]:
        wanted = set(member_ids)
        if not wanted:
            return {}
        rows = await self._db.fetch(
            "SELECT member, first_day, last_day FROM away_periods WHERE workspace = ?"
            " ORDER BY first_day",
            (workspace_id,),
        )
        found: dict[str, list[AwayPeriod]] = {}
        for member, first_day, last_day in rows:
            if member in wanted:
                found.setdefault(member, []).append(
                    AwayPeriod(date.fromisoformat(first_day), date.fromisoformat(last_day))
                )
        return found

    async def until_for_member(self, member_key: int) -> date | None:
        row = await self._db.fetch_one(
            "SELECT MAX(a.last_day) FROM away_periods a"
            " JOIN members m ON m.workspace = a.workspace AND m.member = a.member"
            " WHERE m.id = ?",
            (member_key,),
        )
        return None if row is None or row[0] is None else date.fromisoformat(row[0])

    async def away_among(self, member_keys: Sequence[int], day: date) -> frozenset[int]:
        away: list[int] = []
        for chunk, marks in in_batches(sorted(frozenset(member_keys))):
            rows = await self._db.fetch(
                "SELECT DISTINCT m.id FROM members m JOIN away_periods a"
                " ON a.workspace = m.workspace AND a.member = m.member"
                f" WHERE m.id IN ({marks}) AND a.last_day >= ?",
                (*chunk, day.isoformat()),
            )
            away.extend(row[0] for row in rows)
        return frozenset(away)

    async def member_workspaces(self, platform: str, member_id: str) -> list[str]:
        rows = await self._db.fetch(
            "SELECT DISTINCT workspace FROM members WHERE platform = ? AND member = ?"
            " ORDER BY workspace",
            (platform, member_id),
        )
        return [row[0] for row in rows]
