"""The ``RecapStore`` port on both backends: recap schedules, recaps, and the figures of a
week.

It runs on the store's database object rather than opening a connection of its own.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from bot.kernel.models import ActionKind
from bot.recaps.store import RecapRecord, StreakRounds, WeekAnswer, WeekFigures
from storage.sql.in_batches import in_batches
from storage.sql.session import SqlDatabase
from storage.timestamps import from_db, to_db

WEEK_ANSWERS = """
SELECT a.member_id, m.display_name, m.member, a.answered_at, a.scoring, a.votes, a.text,
       a.message_id, r.thread,
       EXISTS (SELECT 1 FROM best_answers b WHERE b.answer_id = a.id) AS best,
       a.quality_points
FROM answers a
JOIN members m ON m.id = a.member_id
JOIN rounds r ON r.id = a.round_id
WHERE a.channel_id = ? AND a.answered_at >= ? AND a.answered_at < ?
ORDER BY a.answered_at, a.id
"""

# One row per window, in the order given. Plain VALUES with typed placeholders, so the same
# text runs on SQLite and PostgreSQL (no JSON functions, which differ between the two).
# 500 a statement: a start at 10,000 channels checks their missed recaps in 40 round
# trips to the database, not 100 (200 a statement); 2,000 made it 10 but SQLite keeps each
# statement compiled, and one of 2,000 windows held 6 MB of a start's peak resident size.
BATCH = 500
WINDOW = "(CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER))"
LAST_ROUNDS_BETWEEN = """
WITH w(channel_id, start_at, end_at, position) AS (VALUES {windows})
SELECT (SELECT r.id FROM rounds r
        WHERE r.channel_id = w.channel_id
          AND r.scheduled_for >= w.start_at
          AND r.scheduled_for < w.end_at
        ORDER BY r.scheduled_for DESC LIMIT 1)
FROM w
ORDER BY w.position
"""


class Recaps:
    """``RecapStore`` on a store's database (either backend)."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def recap_schedule(self, channel_id: int) -> tuple[bool, str | None]:
        rows = await self._db.fetch(
            "SELECT enabled, schedule FROM recap_schedules WHERE channel_id = ?", (channel_id,)
        )
        if not rows:
            return True, None
        return bool(rows[0][0]), rows[0][1]

    async def recap_schedules(self) -> dict[int, tuple[bool, str | None]]:
        rows = await self._db.fetch("SELECT channel_id, enabled, schedule FROM recap_schedules", ())
        return {row[0]: (bool(row[1]), row[2]) for row in rows}

    async def set_recap_schedule(
        self, channel_id: int, enabled: bool, schedule: str | None
    ) -> None:
        async with self._db.transaction() as session:
            await session.execute(
                "INSERT INTO recap_schedules (channel_id, enabled, schedule) VALUES (?, ?, ?)"
                " ON CONFLICT (channel_id) DO UPDATE"
                " SET enabled = excluded.enabled, schedule = excluded.schedule",
                (channel_id, int(enabled), schedule),
            )

    async def record_recap(self, recap: RecapRecord, round_id: int, at: datetime) -> bool:
        return recap.key in await self.record_recaps([(recap, round_id)], at)

    async def record_recaps(
        self, recaps: Sequence[tuple[RecapRecord, int]], at: datetime
    ) -> set[str]:
        if not recaps:
            return set()
        now = to_db(at)
        recorded: set[str] = set()
        async with self._db.transaction() as session:
            for start in range(0, len(recaps), BATCH):
                batch = recaps[start : start + BATCH]
                rows = await session.fetch(
                    "INSERT INTO recaps (channel_id, week, slot, outbox_key, created_at) VALUES "
                    + ", ".join("(?, ?, ?, ?, ?)" for _ in batch)
                    + " ON CONFLICT DO NOTHING RETURNING outbox_key",
                    [
                        value
                        for recap, _ in batch
                        for value in (
                            recap.channel_id,
                            recap.week,
                            to_db(recap.slot),
                            recap.key,
                            now,
                        )
                    ],
                )
                fresh = {row[0] for row in rows}
                recorded |= fresh
                actions = [(r, round_id) for r, round_id in batch if r.key in fresh]
                if actions:
                    await session.execute(
                        "INSERT INTO outbox (round_id, kind, key, state, attempts,"
                        " next_attempt_at, created_at, updated_at) VALUES "
                        + ", ".join("(?, ?, ?, 'pending', 0, ?, ?, ?)" for _ in actions),
                        [
                            value
                            for recap, round_id in actions
                            for value in (
                                round_id,
                                ActionKind.RECAP.value,
                                recap.key,
                                now,
                                now,
                                now,
                            )
                        ],
                    )
        return recorded

    async def record_recap_text(self, key: str, message_id: str, at: datetime) -> None:
        async with self._db.transaction() as session:
            await session.execute(
                "UPDATE outbox SET result_ref = ?, updated_at = ?"
                " WHERE key = ? AND kind = ? AND state = 'pending'",
                (message_id, to_db(at), key, ActionKind.RECAP.value),
            )

    async def recap_by_key(self, key: str) -> RecapRecord | None:
        rows = await self._db.fetch(
            "SELECT channel_id, week, slot, outbox_key FROM recaps WHERE outbox_key = ?", (key,)
        )
        if not rows:
            return None
        channel_id, week, slot, outbox_key = rows[0]
        return RecapRecord(channel_id, week, from_db(slot), outbox_key)

    async def recorded_keys(self, keys: Collection[str]) -> set[str]:
        if not keys:
            return set()
        found = set[str]()
        for chunk, marks in in_batches(list(keys), BATCH):
            rows = await self._db.fetch(
                f"SELECT outbox_key FROM recaps WHERE outbox_key IN ({marks})", tuple(chunk)
            )
            found.update(row[0] for row in rows)
        return found

    async def last_rounds_between(
        self, windows: Sequence[tuple[int, datetime, datetime]]
    ) -> list[int | None]:
        if not windows:
            return []
        found: list[int | None] = []
        for at in range(0, len(windows), BATCH):
            chunk = windows[at : at + BATCH]
            params: list[object] = []
            for position, (channel, start, end) in enumerate(chunk):
                params += [channel, to_db(start), to_db(end), position]
            sql = LAST_ROUNDS_BETWEEN.format(windows=", ".join(WINDOW for _ in chunk))
            found += [row[0] for row in await self._db.fetch(sql, tuple(params))]
        return found

    async def last_round_between(
        self, channel_id: int, start: datetime, end: datetime
    ) -> int | None:
        rows = await self._db.fetch(
            "SELECT id FROM rounds WHERE channel_id = ? AND scheduled_for >= ?"
            " AND scheduled_for < ? ORDER BY scheduled_for DESC LIMIT 1",
            (channel_id, to_db(start), to_db(end)),
        )
        return int(rows[0][0]) if rows else None

    async def week_figures(self, channel_id: int, start: datetime, end: datetime) -> WeekFigures:
        bounds = (channel_id, to_db(start), to_db(end))
        rounds = await self._db.fetch(
            "SELECT scheduled_for FROM rounds WHERE channel_id = ? AND scheduled_for >= ?"
            " AND scheduled_for < ?",
            bounds,
        )
        answers = await self._db.fetch(WEEK_ANSWERS, bounds)
        return WeekFigures(
            rounds=len(rounds),
            round_times=tuple(from_db(row[0]) for row in rounds),
            answers=tuple(
                WeekAnswer(
                    member_id=row[0],
                    member_name=row[1] or row[2],
                    answered_at=from_db(row[3]),
                    scoring=bool(row[4]),
                    votes=row[5],
                    text=row[6],
                    message_id=row[7],
                    thread=row[8],
                    best=bool(row[9]),
                    quality_points=row[10],
                )
                for row in answers
            ),
        )

    async def member_answer_times(
        self, channel_id: int, member_id: int, since: datetime
    ) -> list[datetime]:
        rows = await self._db.fetch(
            "SELECT answered_at FROM answers WHERE channel_id = ? AND member_id = ?"
            " AND scoring = 1 AND answered_at >= ? ORDER BY answered_at",
            (channel_id, member_id, to_db(since)),
        )
        return [from_db(row[0]) for row in rows]

    async def streak_rounds(self, channel_id: int, until: datetime) -> StreakRounds:
        moment = to_db(until)
        scheduled = await self._db.fetch(
            "SELECT id, scheduled_for, skipped_at FROM rounds"
            " WHERE channel_id = ? AND scheduled = 1 AND scheduled_for < ? ORDER BY number",
            (channel_id, moment),
        )
        answered = await self._db.fetch(
            "SELECT DISTINCT a.member_id, a.round_id, m.display_name, m.member FROM answers a"
            " JOIN members m ON m.id = a.member_id"
            " WHERE a.channel_id = ? AND a.answered_at < ?",
            (channel_id, moment),
        )
        by_member: dict[int, set[int]] = {}
        names: dict[int, str] = {}
        platform_ids: dict[int, str] = {}
        for member_id, round_id, display_name, member in answered:
            by_member.setdefault(member_id, set()).add(round_id)
            names[member_id] = display_name or member
            platform_ids[member_id] = member
        return StreakRounds(
            scheduled_round_ids=tuple(row[0] for row in scheduled),
            answered={member: frozenset(rounds) for member, rounds in by_member.items()},
            names=names,
            scheduled_for=tuple(from_db(row[1]) for row in scheduled),
            platform_ids=platform_ids,
            skipped_round_ids=frozenset(row[0] for row in scheduled if row[2] is not None),
        )
