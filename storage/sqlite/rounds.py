"""Rounds on SQLite: creating one, a reveal reactor and a reveal, each one transaction
in one hop on aiosqlite's thread (``SqliteDatabase.transact``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.kernel.bounded_cache import BoundedCache
from bot.kernel.models import ActionKind, Delivery, LaterAction, Revealed, Round, action_key
from storage.records import ROUND_COLUMNS, round_from_row
from storage.sql.rounds import (
    ADD_REVEAL_REACTOR,
    ASK_COUNTS,
    COUNT_REVEAL_REACTORS,
    QUEUE_NOTICE,
    DraftsFor,
    RoundQueries,
    closing_the_open_round,
    later_rows,
    notice_params,
)
from storage.sqlite import on_thread
from storage.sqlite.database import SqliteDatabase
from storage.timestamps import to_db


class SqliteRounds(RoundQueries):
    """Rounds and the questions they ask, on SQLite."""

    def __init__(self, db: SqliteDatabase, round_channels: BoundedCache[int, int]) -> None:
        super().__init__(db, round_channels)
        self._sqlite = db

    async def create_round(
        self,
        channel_id: int,
        choose_question: Callable[[Mapping[int, int]], int],
        scheduled_for: datetime,
        *,
        scheduled: bool,
        created_at: datetime,
        actions: Sequence[ActionKind],
        later: Sequence[LaterAction] = (),
    ) -> Round | None:
        slot, now = to_db(scheduled_for), to_db(created_at)

        def work(conn: sqlite3.Connection) -> Round | None:
            taken = conn.execute(
                "SELECT 1 FROM rounds WHERE channel_id = ? AND scheduled_for = ?",
                (channel_id, slot),
            ).fetchone()
            if taken is not None:
                return None
            asked = conn.execute(ASK_COUNTS, (channel_id,)).fetchall()
            question_id = choose_question({row[0]: row[1] for row in asked})
            for sql, params in closing_the_open_round(now, channel_id):
                conn.execute(sql, params)
            row = conn.execute(
                "INSERT INTO rounds (channel_id, question_id, number, scheduled_for,"
                " scheduled, state, created_at)"
                " SELECT ?, ?, COALESCE(MAX(number), 0) + 1, ?, ?, 'open', ?"
                f" FROM rounds WHERE channel_id = ? RETURNING {ROUND_COLUMNS}",
                (channel_id, question_id, slot, int(scheduled), now, channel_id),
            ).fetchone()
            new_round = round_from_row(row)
            conn.executemany(
                "INSERT INTO outbox (round_id, kind, key, state, attempts, next_attempt_at,"
                " created_at, updated_at) VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)",
                [
                    (new_round.id, kind.value, action_key(new_round.id, kind), now, now, now)
                    for kind in actions
                ]
                + [
                    (new_round.id, kind.value, key, to_db(due), now, now)
                    for kind, key, due in later_rows(new_round.id, later)
                ],
            )
            conn.execute(QUEUE_NOTICE, notice_params(new_round.id, now, channel_id))
            return new_round

        created = await self._sqlite.transact(work)
        if created is None:
            return None
        self._round_channels.put(created.id, channel_id)
        return created

    async def add_reveal_reactor(
        self, round_id: int, member_id: int, *, at: datetime, delivery: Delivery | None = None
    ) -> int:
        now = to_db(at)

        def work(conn: sqlite3.Connection) -> int:
            on_thread.refuse_duplicate(conn, delivery)
            added = conn.execute(ADD_REVEAL_REACTOR, (round_id, member_id, now)).rowcount
            if added == 1:
                on_thread.record_delivery(conn, delivery, now)
            count = conn.execute(COUNT_REVEAL_REACTORS, (round_id,)).fetchone()
            return int(count[0])

        return await self._sqlite.transact(work)

    async def _reveal(
        self,
        round_id_sql: str,
        params: Sequence[Any],
        now: str,
        drafts_for: DraftsFor,
        delivery: Delivery | None,
    ) -> Revealed | None:
        return await self._sqlite.transact(
            lambda conn: on_thread.reveal(conn, round_id_sql, params, now, drafts_for, delivery)
        )
