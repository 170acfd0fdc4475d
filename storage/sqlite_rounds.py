"""Questions, rounds and their outbox on SQLite (the ``RoundStore`` port)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import aiosqlite

from bot.kernel.models import (
    ActionKind,
    ChannelSettings,
    Delivery,
    OutboxAction,
    OutboxDraft,
    PruneBatch,
    Revealed,
    Round,
    action_key,
)
from questions.catalog import QuestionKey
from storage.blind_queries import ROUNDS_WITH_UNPOSTED_BLIND_ANSWERS, queue_blind_answers_sql
from storage.deliveries import record_delivery, refuse_duplicate
from storage.errors import NotFoundError
from storage.outbox_queries import (
    DONE_ACTIONS_BEFORE,
    due_actions_sql,
    next_due_sql,
)
from storage.records import (
    CHANNEL_COLUMNS,
    OUTBOX_COLUMNS,
    ROUND_COLUMNS,
    action_from_row,
    channel_from_row,
    draft_row,
    round_from_row,
)
from storage.sqlite_connection import SqliteConnection
from storage.timestamps import from_db, to_db

MAX_ERROR_LENGTH = 2000
_ASK_COUNTS = "SELECT question_id, COUNT(*) FROM rounds WHERE channel_id = ? GROUP BY question_id"
_QUEUE_BLIND_ANSWERS_OF_CHANNEL = queue_blind_answers_sql("r.channel_id = ?")
_QUEUE_BLIND_ANSWERS_OF_ROUND = queue_blind_answers_sql("r.id = ?")
_PASS_START = ("", 0)  # before every (next_attempt_at, id)
# A round and its channel in one statement (the channel's id is the round's channel_id).
ROUND_IN_CHANNEL = (
    "SELECT "
    + ", ".join(f"r.{c}" for c in ROUND_COLUMNS.split(", "))
    + ", "
    + ", ".join(f"c.{c}" for c in CHANNEL_COLUMNS.split(", ") if c != "id")
    + " FROM rounds r LEFT JOIN channels c ON c.id = r.channel_id WHERE r.id = ?"
)

# An action an attempt may begin on ("?1": now): pending, and due. A copy read before a
# retry or a postponement put it off (a reveal's hand-over) must not start it early.
_DUE_TO_SEND = "state = 'pending' AND next_attempt_at <= ?1"

# Revealing a round: {round_id} is a parameter or ROUND_BY_MESSAGE. A round an admin
# skipped is never revealed: its outline stays unposted.
REVEAL = (
    "UPDATE rounds SET revealed_at = ? WHERE id = ({round_id}) AND revealed_at IS NULL"
    f" AND skipped_at IS NULL RETURNING {ROUND_COLUMNS}"
)
# The round whose question is a message.
ROUND_BY_MESSAGE = "SELECT id FROM rounds WHERE channel_id = ? AND question_message = ? LIMIT 1"
PENDING_OF_ROUND = (
    f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE round_id = ? AND state = 'pending' ORDER BY id"
)


def round_drafts(round_id: int, kinds: Sequence[ActionKind]) -> list[OutboxDraft]:
    return [OutboxDraft(round_id, kind, action_key(round_id, kind)) for kind in kinds]


class SqliteRounds(SqliteConnection):
    """Rounds, the questions they ask, and the outbox of actions each round sends."""

    # What a retried or failed action's UPDATE also sets: a store with outbox leases
    # releases the lease there (one process on SQLite has none).
    _RELEASE = ""

    def __init__(self, conn: aiosqlite.Connection, path: Path | str) -> None:
        super().__init__(conn, path)
        self._prune_cursor = _PASS_START  # where the current outbox retention pass has got to

    # questions

    async def sync_questions(self, questions: Sequence[QuestionKey]) -> dict[tuple[str, str], int]:
        params = [(q.pack, q.question, q.topic, q.content_hash) for q in questions]
        async with self._transaction() as conn:
            await conn.executemany(
                "INSERT INTO questions (pack, question, topic, content_hash) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (pack, question) DO UPDATE"
                " SET topic = excluded.topic, content_hash = excluded.content_hash",
                params,
            )
            rows = await conn.execute_fetchall("SELECT id, pack, question FROM questions")
        wanted = {(q.pack, q.question) for q in questions}
        return {(row[1], row[2]): row[0] for row in rows if (row[1], row[2]) in wanted}

    # rounds

    async def create_round(
        self,
        channel_id: int,
        choose_question: Callable[[Mapping[int, int]], int],
        scheduled_for: datetime,
        *,
        scheduled: bool,
        created_at: datetime,
        actions: Sequence[ActionKind],
    ) -> Round | None:
        slot, now = to_db(scheduled_for), to_db(created_at)

        def work(conn: sqlite3.Connection) -> Round | None:
            taken = conn.execute(
                "SELECT 1 FROM rounds WHERE channel_id = ? AND scheduled_for = ?",
                (channel_id, slot),
            ).fetchone()
            if taken is not None:
                return None
            asked = conn.execute(_ASK_COUNTS, (channel_id,)).fetchall()
            question_id = choose_question({row[0]: row[1] for row in asked})
            conn.execute(_QUEUE_BLIND_ANSWERS_OF_CHANNEL, (now, now, now, channel_id))
            conn.execute(
                "UPDATE rounds SET state = 'closed', closed_at = ?"
                " WHERE channel_id = ? AND state = 'open'",
                (now, channel_id),
            )
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
                ],
            )
            return new_round

        created = await self._transact(work)
        if created is None:
            return None
        self._round_channels.put(created.id, channel_id)
        return created

    async def _round_where(self, condition: str, params: Sequence[Any]) -> Round | None:
        row = await self._fetch_one(f"SELECT {ROUND_COLUMNS} FROM rounds WHERE {condition}", params)
        return None if row is None else round_from_row(row)

    async def get_round(self, round_id: int) -> Round | None:
        return await self._round_where("id = ?", (round_id,))

    async def round_in_channel(self, round_id: int) -> tuple[Round, ChannelSettings | None] | None:
        row = await self._fetch_one(ROUND_IN_CHANNEL, (round_id,))
        if row is None:
            return None
        fields: dict[str, Any] = dict(zip(row.keys(), tuple(row), strict=True))
        round_ = round_from_row(cast(sqlite3.Row, fields))
        if fields["platform"] is None:
            return round_, None  # the channel is gone
        channel = channel_from_row(cast(sqlite3.Row, {**fields, "id": round_.channel_id}))
        return round_, channel

    async def open_round(self, channel_id: int) -> Round | None:
        return await self._round_where("channel_id = ? AND state = 'open'", (channel_id,))

    async def latest_round(self, channel_id: int) -> Round | None:
        return await self._round_where("channel_id = ? ORDER BY number DESC LIMIT 1", (channel_id,))

    async def latest_round_times(self) -> dict[int, datetime]:
        rows = await self._fetch(
            "SELECT c.id, (SELECT r.scheduled_for FROM rounds r WHERE r.channel_id = c.id"
            " ORDER BY r.number DESC LIMIT 1) FROM channels c"
        )
        return {row[0]: from_db(row[1]) for row in rows if row[1] is not None}

    async def round_by_message(self, channel_id: int, message: str) -> Round | None:
        return await self._round_where(
            "channel_id = ? AND question_message = ?", (channel_id, message)
        )

    async def round_by_thread(self, channel_id: int, thread: str) -> Round | None:
        return await self._round_where("channel_id = ? AND thread = ?", (channel_id, thread))

    async def add_reveal_reactor(
        self, round_id: int, member_id: int, *, at: datetime, delivery: Delivery | None = None
    ) -> int:
        now = to_db(at)

        def work(conn: sqlite3.Connection) -> int:
            refuse_duplicate(conn, delivery)
            added = conn.execute(
                "INSERT INTO reveal_reactors (round_id, member_id, reacted_at) VALUES (?, ?, ?)"
                " ON CONFLICT (round_id, member_id) DO NOTHING",
                (round_id, member_id, now),
            ).rowcount
            if added == 1:
                record_delivery(conn, delivery, now)
            count = conn.execute(
                "SELECT COUNT(*) FROM reveal_reactors WHERE round_id = ?", (round_id,)
            ).fetchone()
            return int(count[0])

        return await self._transact(work)

    async def reveal_round(
        self, round_id: int, at: datetime, drafts: Sequence[OutboxDraft]
    ) -> Revealed | None:
        return await self._reveal("?", (round_id,), to_db(at), lambda _: drafts, None)

    async def reveal_round_by_message(
        self,
        channel_id: int,
        message: str,
        at: datetime,
        kinds: Sequence[ActionKind],
        *,
        delivery: Delivery,
    ) -> Revealed | None:
        return await self._reveal(
            ROUND_BY_MESSAGE,
            (channel_id, message),
            to_db(at),
            lambda round_id: round_drafts(round_id, kinds),
            delivery,
        )

    async def _reveal(
        self,
        round_id_sql: str,
        params: Sequence[Any],
        now: str,
        drafts_for: Callable[[int], Sequence[OutboxDraft]],
        delivery: Delivery | None,
    ) -> Revealed | None:
        """Reveal the round ``round_id_sql`` (SQL giving its id) selects: one transaction."""
        return await self._transact(
            lambda conn: _reveal(conn, round_id_sql, params, now, drafts_for, delivery)
        )

    async def skip_round(self, round_id: int, at: datetime) -> bool:
        now = to_db(at)
        async with self._transaction() as conn:
            await conn.execute(_QUEUE_BLIND_ANSWERS_OF_ROUND, (now, now, now, round_id))
            # One statement: no reveal can come between the close and the mark.
            cursor = await conn.execute(
                "UPDATE rounds SET state = 'closed', closed_at = ?,"
                " skipped_at = CASE WHEN revealed_at IS NULL THEN ? END"
                " WHERE id = ? AND state = 'open'",
                (now, now, round_id),
            )
            return cursor.rowcount == 1

    async def rounds_with_unposted_blind_answers(self, channel_id: int) -> list[Round]:
        rows = await self._fetch(ROUNDS_WITH_UNPOSTED_BLIND_ANSWERS, (channel_id,))
        return [round_from_row(row) for row in rows]

    # outbox

    async def enqueue(self, drafts: Sequence[OutboxDraft], at: datetime) -> int:
        now = to_db(at)
        return await self._transact(lambda conn: _insert_drafts(conn, drafts, now))

    async def due_actions(
        self, now: datetime, limit: int = 100, *, platforms: Collection[str] | None = None
    ) -> list[OutboxAction]:
        # Oldest first is creation order, so a round's actions come in the order enqueued.
        names = None if platforms is None else sorted(platforms)
        rows = await self._fetch(
            due_actions_sql(None if names is None else len(names)),
            (to_db(now), *(names or ()), *(names or ()), limit),
        )
        return [action_from_row(row) for row in rows]

    async def next_due_after(
        self, after: datetime, *, platforms: Collection[str] | None = None
    ) -> datetime | None:
        names = None if platforms is None else sorted(platforms)
        row = await self._fetch_one(
            next_due_sql(None if names is None else len(names)),
            (to_db(after), *(names or ()), *(names or ())),
        )
        return None if row is None else from_db(row[0])

    async def prune_done_actions(self, before: datetime, limit: int) -> PruneBatch:
        # A follow-ups action of a round not revealed yet stays: the reveal enqueues
        # follow-ups again and only the existing key stops a second post. Open rounds
        # keep theirs too (a first answer enqueues follow-ups). A direct action (no round)
        # goes once it is old: its key names a step or a day that never comes again.
        cutoff = to_db(before)
        after_at, after_id = self._prune_cursor
        rows = await self._fetch(
            DONE_ACTIONS_BEFORE,
            {"cutoff": cutoff, "after_at": after_at, "after_id": after_id, "limit": limit},
        )
        doomed = [
            row["id"]
            for row in rows
            if row["updated_at"] < cutoff
            and (
                row["round_id"] is None
                or (
                    row["state"] == "closed"
                    and (
                        row["kind"] != ActionKind.FOLLOW_UPS.value or row["revealed_at"] is not None
                    )
                )
            )
        ]
        more = len(rows) == limit
        self._prune_cursor = (rows[-1]["next_attempt_at"], rows[-1]["id"]) if more else _PASS_START
        if doomed:
            marks = ", ".join("?" * len(doomed))
            await self._change(f"DELETE FROM outbox WHERE id IN ({marks})", doomed)
        return PruneBatch(deleted=len(doomed), more=more)

    async def postpone_actions(
        self, action_ids: Sequence[int], until: datetime, *, at: datetime
    ) -> None:
        if not action_ids:
            return
        marks = ", ".join("?" * len(action_ids))
        await self._change(
            f"UPDATE outbox SET next_attempt_at = ?, updated_at = ?{self._RELEASE}"
            f" WHERE state = 'pending' AND id IN ({marks})",
            (to_db(until), to_db(at), *action_ids),
        )

    async def begin_attempt(self, action_id: int, at: datetime) -> OutboxAction | None:
        rows = await self._fetch(
            "UPDATE outbox SET attempts = attempts + 1, updated_at = ?1"
            f" WHERE id = ?2 AND {_DUE_TO_SEND} RETURNING {OUTBOX_COLUMNS}",
            (to_db(at), action_id),
        )
        if not rows:
            await self._require_action(action_id)
            return None
        return action_from_row(rows[0])

    async def complete_action(self, action_id: int, result_ref: str | None, at: datetime) -> None:
        await self._transact(lambda conn: _complete(conn, action_id, result_ref, to_db(at)))

    async def complete_and_begin(
        self, done_id: int, result_ref: str | None, next_id: int, at: datetime
    ) -> OutboxAction | None:
        def work(conn: sqlite3.Connection) -> OutboxAction | None:
            now = to_db(at)
            _complete(conn, done_id, result_ref, now)
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

        return await self._transact(work)

    async def retry_action(
        self, action_id: int, error: str, next_attempt_at: datetime, *, at: datetime
    ) -> None:
        """Schedule another attempt of a pending action (a done or failed one stays as it is)."""
        changed = await self._change(
            "UPDATE outbox SET last_error = ?, next_attempt_at = ?, updated_at = ?"
            f"{self._RELEASE} WHERE id = ? AND state = 'pending'",
            (clip_error(error), to_db(next_attempt_at), to_db(at), action_id),
        )
        if changed == 0:
            await self._require_action(action_id)

    async def fail_action(self, action_id: int, error: str, at: datetime) -> None:
        """Give up on a pending action (a done one stays done)."""
        changed = await self._change(
            "UPDATE outbox SET state = 'failed', last_error = ?, updated_at = ?"
            f"{self._RELEASE} WHERE id = ? AND state = 'pending'",
            (clip_error(error), to_db(at), action_id),
        )
        if changed == 0:
            await self._require_action(action_id)

    async def fail_channel_actions(self, channel_id: int, error: str, at: datetime) -> int:
        return await self._change(
            "UPDATE outbox SET state = 'failed', last_error = ?, updated_at = ?"
            " WHERE state = 'pending'"
            " AND round_id IN (SELECT id FROM rounds WHERE channel_id = ?)",
            (clip_error(error), to_db(at), channel_id),
        )

    async def _require_action(self, action_id: int) -> None:
        if await self._fetch_one("SELECT 1 FROM outbox WHERE id = ?", (action_id,)) is None:
            raise NotFoundError(f"no outbox action with id {action_id}")


def _complete(conn: sqlite3.Connection, action_id: int, result_ref: str | None, now: str) -> None:
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


def _reveal(
    conn: sqlite3.Connection,
    round_id_sql: str,
    params: Sequence[Any],
    now: str,
    drafts_for: Callable[[int], Sequence[OutboxDraft]],
    delivery: Delivery | None,
) -> Revealed | None:
    refuse_duplicate(conn, delivery)
    row = conn.execute(REVEAL.format(round_id=round_id_sql), (now, *params)).fetchone()
    if row is None:
        return None
    round_ = round_from_row(row)
    _insert_drafts(conn, drafts_for(round_.id), now)
    record_delivery(conn, delivery, now)
    pending = conn.execute(PENDING_OF_ROUND, (round_.id,)).fetchall()
    return Revealed(round_, tuple(action_from_row(r) for r in pending))


def _insert_drafts(conn: sqlite3.Connection, drafts: Sequence[OutboxDraft], now: str) -> int:
    """Queue the drafts' actions (a key already queued stays as it is); how many are new."""
    cursor = conn.executemany(
        "INSERT INTO outbox (round_id, kind, key, target_platform, target_workspace,"
        " target_channel, card, state, attempts, next_attempt_at, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)"
        " ON CONFLICT (key) DO NOTHING",
        [(*draft_row(d), now, now, now) for d in drafts],
    )
    return max(cursor.rowcount, 0)


def clip_error(error: str) -> str:
    return error if len(error) <= MAX_ERROR_LENGTH else error[: MAX_ERROR_LENGTH - 1] + "…"
