"""The outbox on SQLite: one process sends, so an action needs no claim; queuing and
finishing run in one hop on aiosqlite's thread (``SqliteDatabase.transact``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence
from datetime import datetime

from bot.kernel.models import OutboxAction, OutboxDraft
from storage.errors import NotFoundError
from storage.outbox_queries import due_actions_sql, next_due_sql
from storage.records import OUTBOX_COLUMNS, action_from_row
from storage.sql.outbox import OutboxQueries, clip_error
from storage.sqlite import on_thread
from storage.sqlite.database import SqliteDatabase
from storage.timestamps import from_db, to_db

# An action an attempt may begin on ("?1": now): pending, and due. A copy read before a
# retry or a postponement put it off (a reveal's hand-over) must not start it early.
_DUE_TO_SEND = "state = 'pending' AND next_attempt_at <= ?1"


class SqliteOutbox(OutboxQueries):
    """The actions waiting to be sent, and those sent, on SQLite."""

    def __init__(self, db: SqliteDatabase) -> None:
        super().__init__(db)
        self._sqlite = db

    async def enqueue(self, drafts: Sequence[OutboxDraft], at: datetime) -> int:
        now = to_db(at)
        return await self._sqlite.transact(lambda conn: on_thread.insert_drafts(conn, drafts, now))

    async def due_actions(
        self, now: datetime, limit: int = 100, *, platforms: Collection[str] | None = None
    ) -> list[OutboxAction]:
        # Oldest first is creation order, so a round's actions come in the order enqueued.
        names = None if platforms is None else sorted(platforms)
        rows = await self._db.fetch(
            due_actions_sql(None if names is None else len(names)),
            (to_db(now), *(names or ()), *(names or ()), limit),
        )
        return [action_from_row(row) for row in rows]

    async def next_due_after(
        self, after: datetime, *, platforms: Collection[str] | None = None
    ) -> datetime | None:
        names = None if platforms is None else sorted(platforms)
        row = await self._db.fetch_one(
            next_due_sql(None if names is None else len(names)),
            (to_db(after), *(names or ()), *(names or ())),
        )
        return None if row is None else from_db(row[0])

    async def postpone_actions(
        self, action_ids: Sequence[int], until: datetime, *, at: datetime
    ) -> None:
        if not action_ids:
            return
        marks = ", ".join("?" * len(action_ids))
        await self._db.change(
            "UPDATE outbox SET next_attempt_at = ?, updated_at = ?"
            f" WHERE state = 'pending' AND id IN ({marks})",
            (to_db(until), to_db(at), *action_ids),
        )

    async def begin_attempt(self, action_id: int, at: datetime) -> OutboxAction | None:
        rows = await self._db.fetch(
            "UPDATE outbox SET attempts = attempts + 1, updated_at = ?1"
            f" WHERE id = ?2 AND {_DUE_TO_SEND} RETURNING {OUTBOX_COLUMNS}",
            (to_db(at), action_id),
        )
        if not rows:
            await self._require_action(action_id)
            return None
        return action_from_row(rows[0])

    async def complete_action(self, action_id: int, result_ref: str | None, at: datetime) -> None:
        now = to_db(at)
        await self._sqlite.transact(
            lambda conn: on_thread.complete(conn, action_id, result_ref, now)
        )

    async def complete_and_begin(
        self, done_id: int, result_ref: str | None, next_id: int, at: datetime
    ) -> OutboxAction | None:
        def work(conn: sqlite3.Connection) -> OutboxAction | None:
            now = to_db(at)
            on_thread.complete(conn, done_id, result_ref, now)
            row = conn.execute(
                "UPDATE outbox SET attempts = attempts + 1, updated_at = ?1"
                f" WHERE id = ?2 AND {_DUE_TO_SEND} RETURNING {OUTBOX_COLUMNS}",
                (now, next_id),
            ).fetchone()
            if row is not None:
                return action_from_row(row)
            if conn.execute("SELECT 1 FROM outbox WHERE id = ?", (next_id,)).fetchone() is None:
                raise NotFoundError(f"no outbox action with id {next_id}")
            return None

        return await self._sqlite.transact(work)

    async def retry_action(
        self, action_id: int, error: str, next_attempt_at: datetime, *, at: datetime
    ) -> None:
        """Schedule another attempt of a pending action (a done or failed one stays as it is)."""
        changed = await self._db.change(
            "UPDATE outbox SET last_error = ?, next_attempt_at = ?, updated_at = ?"
            " WHERE id = ? AND state = 'pending'",
            (clip_error(error), to_db(next_attempt_at), to_db(at), action_id),
        )
        if changed == 0:
            await self._require_action(action_id)

    async def fail_action(self, action_id: int, error: str, at: datetime) -> None:
        """Give up on a pending action (a done one stays done)."""
        changed = await self._db.change(
            "UPDATE outbox SET state = 'failed', last_error = ?, updated_at = ?"
            " WHERE id = ? AND state = 'pending'",
            (clip_error(error), to_db(at), action_id),
        )
        if changed == 0:
            await self._require_action(action_id)
