"""Statements that run on aiosqlite's thread inside a one-hop transaction
(``SqliteDatabase.transact``): plain ``sqlite3`` calls, no awaiting between them."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from bot.kernel.models import ActionKind, Delivery, OutboxDraft, Revealed
from storage.errors import NotFoundError
from storage.records import action_from_row, draft_row, round_from_row
from storage.sql.deliveries import RECORD, SEEN, delivery_key, duplicate
from storage.sql.rounds import PENDING_OF_ROUND, REVEAL, DraftsFor


def refuse_duplicate(conn: sqlite3.Connection, delivery: Delivery | None) -> None:
    if delivery is not None and conn.execute(SEEN, delivery_key(delivery)).fetchone() is not None:
        raise duplicate(delivery)


def record_delivery(conn: sqlite3.Connection, delivery: Delivery | None, now: str) -> None:
    if delivery is not None:
        conn.execute(RECORD, (*delivery_key(delivery), now))


def complete(conn: sqlite3.Connection, action_id: int, result_ref: str | None, now: str) -> None:
    """Mark the action done; a question's or thread's result becomes the round's."""
    row = conn.execute(
        "UPDATE outbox SET state = 'done', result_ref = ?, updated_at = ?"
        " WHERE id = ? RETURNING round_id, kind",
        (result_ref, now, action_id),
    ).fetchone()
    if row is None:
        raise NotFoundError(f"no outbox action with id {action_id}")
    round_id, kind = row[0], ActionKind(row[1])
    column = {ActionKind.QUESTION: "question_message", ActionKind.THREAD: "thread"}.get(kind)
    if column is not None and result_ref is not None:
        conn.execute(f"UPDATE rounds SET {column} = ? WHERE id = ?", (result_ref, round_id))


def reveal(
    conn: sqlite3.Connection,
    round_id_sql: str,
    params: Sequence[Any],
    now: str,
    drafts_for: DraftsFor,
    delivery: Delivery | None,
) -> Revealed | None:
    refuse_duplicate(conn, delivery)
    row = conn.execute(REVEAL.format(round_id=round_id_sql), (now, *params)).fetchone()
    if row is None:
        return None
    round_ = round_from_row(row)
    insert_drafts(conn, drafts_for(round_.id), now)
    record_delivery(conn, delivery, now)
    pending = conn.execute(PENDING_OF_ROUND, (round_.id,)).fetchall()
    return Revealed(round_, tuple(action_from_row(r) for r in pending))


def insert_drafts(conn: sqlite3.Connection, drafts: Sequence[OutboxDraft], now: str) -> int:
    """Queue the drafts' actions (a key already queued stays as it is); how many are new."""
    cursor = conn.executemany(
        "INSERT INTO outbox (round_id, kind, key, target_platform, target_workspace,"
        " target_channel, card, state, attempts, next_attempt_at, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)"
        " ON CONFLICT (key) DO NOTHING",
        [(*draft_row(d, now), now, now) for d in drafts],
    )
    return max(cursor.rowcount, 0)
