"""The SQLite implementation of the ``Store`` port (aiosqlite).

One long-lived connection (WAL, ``synchronous=NORMAL`` unless FULL is asked for)
does every read and write. Several asyncio tasks share it, so each statement or transaction holds
``_lock``: a transaction never interleaves with another task's statements, and
no reader sees rows of a batch that may still roll back. Answers are
group-committed (see ``storage.group_commit``).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

import aiosqlite

from bot.models import (
    ActionKind,
    AnswerDraft,
    AnswerRecord,
    AnswerResult,
    ChannelSettings,
    ChannelStats,
    LeaderboardRow,
    MemberHistory,
    OutboxAction,
    OutboxDraft,
    PruneBatch,
    Round,
)
from bot.refs import ChannelRef, MemberRef
from questions.catalog import QuestionKey
from storage.answer_batch import write_answers
from storage.errors import NotFoundError, StoreClosedError
from storage.group_commit import GroupCommitter
from storage.migrations import MigrationReport, migrate
from storage.one_hop import T, Work, transact
from storage.outbox_queries import (
    DONE_ACTIONS_BEFORE,
    OLDEST_EVENTS,
    due_actions_sql,
    next_due_sql,
)
from storage.records import (
    ANSWER_COLUMNS,
    CHANNEL_COLUMNS,
    OUTBOX_COLUMNS,
    ROUND_COLUMNS,
    action_from_row,
    answer_from_row,
    channel_from_row,
    channel_values,
    round_from_row,
)
from storage.report_queries import CHANNEL_STATS, LEADERBOARD, MEMBER_STANDING
from storage.sqlite_learning import SqliteLearningStore
from storage.timestamps import from_db, to_db

log = logging.getLogger(__name__)

DEFAULT_BUSY_TIMEOUT_MS = 5000
_ASK_COUNTS = "SELECT question_id, COUNT(*) FROM rounds WHERE channel_id = ? GROUP BY question_id"
# In WAL mode NORMAL syncs at checkpoints only: a power loss (not a crash of the
# process) can undo the last commits. FULL syncs the WAL at every commit.
SYNCHRONOUS_MODES = {"normal": "NORMAL", "full": "FULL"}
MAX_ERROR_LENGTH = 2000
_PASS_START = ("", 0)  # before every (next_attempt_at, id)


class SqliteStore:
    """``Store`` on SQLite. Open with ``async with SqliteStore.open(path) as store``."""

    def __init__(self, conn: aiosqlite.Connection, path: Path | str) -> None:
        """Use :meth:`open` or :meth:`connect`; this wraps an already configured connection."""
        self._conn: aiosqlite.Connection | None = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._member_ids: dict[tuple[str, str, str], tuple[int, str]] = {}
        self._known_members: set[int] = set()
        self._round_channels: dict[int, int] = {}
        self._answers: GroupCommitter[AnswerDraft, AnswerResult] = GroupCommitter(
            self._write_answer_batch, name="answers"
        )
        self.migration: MigrationReport | None = None
        self._prune_cursor = _PASS_START  # where the current outbox retention pass has got to
        self.learning = SqliteLearningStore(self._transaction, self._fetch)

    # life cycle

    @classmethod
    async def connect(
        cls,
        path: Path | str,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        run_migrations: bool = True,
        synchronous: str = "normal",
    ) -> Self:
        """Open the database, configure the connection and apply pending migrations.

        ``synchronous``: "normal" or "full" (SQLite's PRAGMA synchronous; see SYNCHRONOUS_MODES).
        """
        mode = SYNCHRONOUS_MODES.get(synchronous)
        if mode is None:
            raise ValueError(f"synchronous must be normal or full, not {synchronous!r}")
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute(f"PRAGMA synchronous = {mode}")
            await conn.execute("PRAGMA foreign_keys = ON")
            store = cls(conn, path)
            if run_migrations:
                store.migration = await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        store._answers.start()
        return store

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        path: Path | str,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        run_migrations: bool = True,
        synchronous: str = "normal",
    ) -> AsyncIterator[Self]:
        store = await cls.connect(
            path,
            busy_timeout_ms=busy_timeout_ms,
            run_migrations=run_migrations,
            synchronous=synchronous,
        )
        try:
            yield store
        finally:
            await store.close()

    async def close(self) -> None:
        """Commit what is queued, then close the connection (and stop its thread)."""
        if self._conn is None:
            return
        try:
            await self._answers.close()
        finally:
            async with self._lock:
                conn, self._conn = self._conn, None
                if conn is not None:
                    try:
                        await conn.execute("PRAGMA optimize")  # SQLite's advice before closing
                    except sqlite3.Error as error:
                        log.warning("PRAGMA optimize failed on close: %s", error)
                    finally:
                        await conn.close()

    @property
    def closed(self) -> bool:
        return self._conn is None

    @property
    def answer_batches(self) -> int:
        """How many group-commit batches of answers were written so far."""
        return self._answers.batches

    # statement helpers

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StoreClosedError(f"the store of {self.path} is closed")
        return self._conn

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction that no other task's statements can interleave with."""
        async with self._lock:
            conn = self._connection()
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                await conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise

    async def _transact(self, work: Work[T]) -> T:
        """Like :meth:`_transaction`, with all of ``work``'s statements in one round trip."""
        async with self._lock:
            return await transact(self._connection(), work)

    async def _fetch(
        self, sql: str, params: Sequence[Any] | dict[str, Any] = ()
    ) -> list[sqlite3.Row]:
        async with self._lock:
            return list(await self._connection().execute_fetchall(sql, params))

    async def _fetch_one(
        self, sql: str, params: Sequence[Any] | dict[str, Any] = ()
    ) -> sqlite3.Row | None:
        rows = await self._fetch(sql, params)
        return rows[0] if rows else None

    async def _change(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> int:
        """Run one write statement (atomic on its own); returns the rows it changed."""
        async with self._lock:
            cursor = await self._connection().execute(sql, params)
            return cursor.rowcount  # a write statement is finished: no cursor to close

    # channels

    async def get_channel(self, ref: ChannelRef) -> ChannelSettings | None:
        row = await self._fetch_one(
            f"SELECT {CHANNEL_COLUMNS} FROM channels"
            " WHERE platform = ? AND workspace = ? AND channel = ?",
            (ref.platform, ref.workspace, ref.channel),
        )
        return None if row is None else channel_from_row(row)

    async def get_channel_by_id(self, channel_id: int) -> ChannelSettings | None:
        row = await self._fetch_one(
            f"SELECT {CHANNEL_COLUMNS} FROM channels WHERE id = ?", (channel_id,)
        )
        return None if row is None else channel_from_row(row)

    async def create_channel(self, settings: ChannelSettings) -> ChannelSettings:
        values = channel_values(settings)
        columns = ", ".join(values)
        placeholders = ", ".join(f":{name}" for name in values)
        async with self._transaction() as conn:
            await conn.execute(
                f"INSERT INTO channels ({columns}) VALUES ({placeholders})"
                " ON CONFLICT (platform, workspace, channel) DO NOTHING",
                values,
            )
            rows = list(
                await conn.execute_fetchall(
                    f"SELECT {CHANNEL_COLUMNS} FROM channels"
                    " WHERE platform = :platform AND workspace = :workspace"
                    " AND channel = :channel",
                    values,
                )
            )
        return channel_from_row(rows[0])

    async def update_channel(self, settings: ChannelSettings) -> None:
        values = channel_values(settings)
        assignments = ", ".join(f"{name} = :{name}" for name in values)
        changed = await self._change(
            f"UPDATE channels SET {assignments} WHERE id = :id", {**values, "id": settings.id}
        )
        if changed == 0:
            raise NotFoundError(f"no channel with id {settings.id}")

    async def list_channels(self) -> list[ChannelSettings]:
        rows = await self._fetch(f"SELECT {CHANNEL_COLUMNS} FROM channels ORDER BY id")
        return [channel_from_row(row) for row in rows]

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

    async def question_ask_counts(self, channel_id: int) -> dict[int, int]:
        rows = await self._fetch(_ASK_COUNTS, (channel_id,))
        return {row[0]: row[1] for row in rows}

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
                    (new_round.id, kind.value, f"round:{new_round.id}:{kind.value}", now, now, now)
                    for kind in actions
                ],
            )
            return new_round

        created = await self._transact(work)
        if created is None:
            return None
        self._round_channels[created.id] = channel_id
        return created

    async def _round_where(self, condition: str, params: Sequence[Any]) -> Round | None:
        row = await self._fetch_one(f"SELECT {ROUND_COLUMNS} FROM rounds WHERE {condition}", params)
        return None if row is None else round_from_row(row)

    async def get_round(self, round_id: int) -> Round | None:
        return await self._round_where("id = ?", (round_id,))

    async def open_round(self, channel_id: int) -> Round | None:
        return await self._round_where("channel_id = ? AND state = 'open'", (channel_id,))

    async def latest_round(self, channel_id: int) -> Round | None:
        return await self._round_where("channel_id = ? ORDER BY number DESC LIMIT 1", (channel_id,))

    async def round_by_message(self, channel_id: int, message: str) -> Round | None:
        return await self._round_where(
            "channel_id = ? AND question_message = ?", (channel_id, message)
        )

    async def round_by_thread(self, channel_id: int, thread: str) -> Round | None:
        return await self._round_where("channel_id = ? AND thread = ?", (channel_id, thread))

    async def mark_revealed(self, round_id: int, at: datetime) -> bool:
        changed = await self._change(
            "UPDATE rounds SET revealed_at = ? WHERE id = ? AND revealed_at IS NULL",
            (to_db(at), round_id),
        )
        return changed == 1

    async def add_reveal_reactor(self, round_id: int, member_id: int) -> int:
        def work(conn: sqlite3.Connection) -> int:
            conn.execute(
                "INSERT INTO reveal_reactors (round_id, member_id, reacted_at) VALUES (?, ?, ?)"
                " ON CONFLICT (round_id, member_id) DO NOTHING",
                (round_id, member_id, _now_text()),
            )
            count = conn.execute(
                "SELECT COUNT(*) FROM reveal_reactors WHERE round_id = ?", (round_id,)
            ).fetchone()
            return int(count[0])

        return await self._transact(work)

    async def reveal_round(
        self, round_id: int, at: datetime, drafts: Sequence[OutboxDraft]
    ) -> bool:
        now = to_db(at)

        def work(conn: sqlite3.Connection) -> bool:
            changed = conn.execute(
                "UPDATE rounds SET revealed_at = ? WHERE id = ? AND revealed_at IS NULL",
                (now, round_id),
            ).rowcount
            if changed != 1:
                return False
            _insert_drafts(conn, drafts, now)
            return True

        return await self._transact(work)

    async def close_round(self, round_id: int, at: datetime) -> bool:
        changed = await self._change(
            "UPDATE rounds SET state = 'closed', closed_at = ? WHERE id = ? AND state = 'open'",
            (to_db(at), round_id),
        )
        return changed == 1

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
            (to_db(now), *(names or ()), limit),
        )
        return [action_from_row(row) for row in rows]

    async def next_due_after(
        self, after: datetime, *, platforms: Collection[str] | None = None
    ) -> datetime | None:
        names = None if platforms is None else sorted(platforms)
        row = await self._fetch_one(
            next_due_sql(None if names is None else len(names)), (to_db(after), *(names or ()))
        )
        return None if row is None else from_db(row[0])

    async def prune_done_actions(self, before: datetime, limit: int) -> PruneBatch:
        # A follow-ups action of a round not revealed yet stays: the reveal enqueues
        # follow-ups again and only the existing key stops a second post. Open rounds
        # keep theirs too (a first answer enqueues follow-ups).
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
            and row["state"] == "closed"
            and (row["kind"] != ActionKind.FOLLOW_UPS.value or row["revealed_at"] is not None)
        ]
        more = len(rows) == limit
        self._prune_cursor = (rows[-1]["next_attempt_at"], rows[-1]["id"]) if more else _PASS_START
        if doomed:
            marks = ", ".join("?" * len(doomed))
            await self._change(f"DELETE FROM outbox WHERE id IN ({marks})", doomed)
        return PruneBatch(deleted=len(doomed), more=more)

    async def prune_events(self, before: datetime, limit: int) -> PruneBatch:
        cutoff = to_db(before)
        rows = await self._fetch(OLDEST_EVENTS, (limit,))
        old = list(itertools.takewhile(lambda row: row["processed_at"] < cutoff, rows))
        if old:
            await self._change("DELETE FROM processed_events WHERE id <= ?", (old[-1]["id"],))
        return PruneBatch(deleted=len(old), more=len(old) == limit)

    async def round_actions(self, round_id: int) -> list[OutboxAction]:
        rows = await self._fetch(
            f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE round_id = ? ORDER BY id", (round_id,)
        )
        return [action_from_row(row) for row in rows]

    async def begin_attempt(self, action_id: int, at: datetime) -> OutboxAction:
        rows = await self._fetch(
            "UPDATE outbox SET attempts = attempts + 1, updated_at = ?"
            f" WHERE id = ? RETURNING {OUTBOX_COLUMNS}",
            (to_db(at), action_id),
        )
        if not rows:
            raise NotFoundError(f"no outbox action with id {action_id}")
        return action_from_row(rows[0])

    async def complete_action(self, action_id: int, result_ref: str | None, at: datetime) -> None:
        def work(conn: sqlite3.Connection) -> None:
            row = conn.execute(
                "UPDATE outbox SET state = 'done', result_ref = ?, updated_at = ?"
                " WHERE id = ? RETURNING round_id, kind",
                (result_ref, to_db(at), action_id),
            ).fetchone()
            if row is None:
                raise NotFoundError(f"no outbox action with id {action_id}")
            round_id, kind = row[0], ActionKind(row[1])
            column = {ActionKind.QUESTION: "question_message", ActionKind.THREAD: "thread"}.get(
                kind
            )
            if column is not None and result_ref is not None:
                conn.execute(f"UPDATE rounds SET {column} = ? WHERE id = ?", (result_ref, round_id))

        await self._transact(work)

    async def retry_action(self, action_id: int, error: str, next_attempt_at: datetime) -> None:
        """Schedule another attempt of a pending action (a done or failed one stays as it is)."""
        changed = await self._change(
            "UPDATE outbox SET last_error = ?, next_attempt_at = ?, updated_at = ?"
            " WHERE id = ? AND state = 'pending'",
            (_clip(error), to_db(next_attempt_at), _now_text(), action_id),
        )
        if changed == 0:
            await self._require_action(action_id)

    async def fail_action(self, action_id: int, error: str, at: datetime) -> None:
        """Give up on a pending action (a done one stays done)."""
        changed = await self._change(
            "UPDATE outbox SET state = 'failed', last_error = ?, updated_at = ?"
            " WHERE id = ? AND state = 'pending'",
            (_clip(error), to_db(at), action_id),
        )
        if changed == 0:
            await self._require_action(action_id)

    async def fail_channel_actions(self, channel_id: int, error: str, at: datetime) -> int:
        return await self._change(
            "UPDATE outbox SET state = 'failed', last_error = ?, updated_at = ?"
            " WHERE state = 'pending'"
            " AND round_id IN (SELECT id FROM rounds WHERE channel_id = ?)",
            (_clip(error), to_db(at), channel_id),
        )

    async def _require_action(self, action_id: int) -> None:
        if await self._fetch_one("SELECT 1 FROM outbox WHERE id = ?", (action_id,)) is None:
            raise NotFoundError(f"no outbox action with id {action_id}")

    # members, answers, votes

    async def member_id(self, ref: MemberRef) -> int:
        key = (ref.platform, ref.workspace, ref.member)
        cached = self._member_ids.get(key)
        if cached is not None and (not ref.display_name or ref.display_name == cached[1]):
            return cached[0]
        rows = await self._fetch(
            "INSERT INTO members (platform, workspace, member, display_name)"
            " VALUES (?, ?, ?, ?)"
            " ON CONFLICT (platform, workspace, member) DO UPDATE SET display_name ="
            " CASE WHEN excluded.display_name = '' THEN members.display_name"
            " ELSE excluded.display_name END"
            " RETURNING id, display_name",
            (*key, ref.display_name),
        )
        member_id, name = int(rows[0][0]), str(rows[0][1])
        self._member_ids[key] = (member_id, name)
        self._known_members.add(member_id)
        return member_id

    async def record_answer(self, draft: AnswerDraft) -> AnswerResult:
        return await self._answers.submit(draft)

    async def _write_answer_batch(
        self, drafts: Sequence[AnswerDraft]
    ) -> list[AnswerResult | Exception]:
        rejected = await self._reject_unknown_references(drafts)
        async with self._transaction() as conn:
            return await write_answers(conn, drafts, rejected)

    async def _reject_unknown_references(
        self, drafts: Sequence[AnswerDraft]
    ) -> dict[int, Exception]:
        """Drafts naming a missing round or member fail alone instead of failing the batch."""
        unknown_rounds = {d.round_id for d in drafts} - self._round_channels.keys()
        unknown_members = {d.member_id for d in drafts} - self._known_members
        if unknown_rounds:
            marks = ", ".join("?" * len(unknown_rounds))
            rows = await self._fetch(
                f"SELECT id, channel_id FROM rounds WHERE id IN ({marks})", tuple(unknown_rounds)
            )
            self._round_channels.update((row[0], row[1]) for row in rows)
        if unknown_members:
            marks = ", ".join("?" * len(unknown_members))
            rows = await self._fetch(
                f"SELECT id FROM members WHERE id IN ({marks})", tuple(unknown_members)
            )
            self._known_members.update(row[0] for row in rows)
        rejected: dict[int, Exception] = {}
        for index, draft in enumerate(drafts):
            channel_id = self._round_channels.get(draft.round_id)
            if channel_id is None:
                rejected[index] = NotFoundError(f"no round with id {draft.round_id}")
            elif channel_id != draft.channel_id:
                rejected[index] = ValueError(
                    f"round {draft.round_id} belongs to channel {channel_id},"
                    f" not {draft.channel_id}"
                )
            elif draft.member_id not in self._known_members:
                rejected[index] = NotFoundError(f"no member with id {draft.member_id}")
        return rejected

    async def edit_answer(self, round_id: int, message_id: str, text: str, at: datetime) -> bool:
        changed = await self._change(
            "UPDATE answers SET text = ?, edited_at = ? WHERE round_id = ? AND message_id = ?",
            (text, to_db(at), round_id, message_id),
        )
        return changed == 1

    async def _answers_where(self, condition: str, params: Sequence[Any]) -> list[AnswerRecord]:
        rows = await self._fetch(
            f"SELECT {ANSWER_COLUMNS} FROM answers a JOIN members m ON m.id = a.member_id"
            f" WHERE {condition}",
            params,
        )
        return [answer_from_row(row) for row in rows]

    async def answer_by_message(self, round_id: int, message_id: str) -> AnswerRecord | None:
        found = await self._answers_where(
            "a.round_id = ? AND a.message_id = ?", (round_id, message_id)
        )
        return found[0] if found else None

    async def answer_by_message_in_channel(
        self, channel_id: int, message_id: str
    ) -> AnswerRecord | None:
        found = await self._answers_where(
            "a.round_id IN (SELECT id FROM rounds WHERE channel_id = ?) AND a.message_id = ?"
            " ORDER BY a.id LIMIT 1",
            (channel_id, message_id),
        )
        return found[0] if found else None

    async def round_answers(self, round_id: int) -> list[AnswerRecord]:
        return await self._answers_where("a.round_id = ? ORDER BY a.answered_at, a.id", (round_id,))

    async def record_vote(
        self, answer_id: int, voter_id: int, at: datetime, *, per_vote: int, max_votes: int
    ) -> bool:
        async with self._transaction() as conn:
            found = list(
                await conn.execute_fetchall(
                    "SELECT (SELECT COUNT(*) FROM answers WHERE id = ?),"
                    " (SELECT COUNT(*) FROM members WHERE id = ?)",
                    (answer_id, voter_id),
                )
            )
            if found[0][0] == 0:
                raise NotFoundError(f"no answer with id {answer_id}")
            if found[0][1] == 0:
                raise NotFoundError(f"no member with id {voter_id}")
            cursor = await conn.execute(
                "INSERT INTO votes (answer_id, voter_id, voted_at) VALUES (?, ?, ?)"
                " ON CONFLICT (answer_id, voter_id) DO NOTHING",
                (answer_id, voter_id, to_db(at)),
            )
            counted = cursor.rowcount == 1
            if counted:
                # Votes on a member's later replies are counted but earn nothing:
                # only the first answer of a round scores.
                await conn.execute(
                    "UPDATE answers SET votes = votes + 1, points = base_points + scoring * ?"
                    " * (CASE WHEN votes + 1 < ? THEN votes + 1 ELSE ? END) WHERE id = ?",
                    (per_vote, max_votes, max_votes, answer_id),
                )
        return counted

    # inbound events

    async def mark_event_processed(self, platform: str, event_id: str, at: datetime) -> bool:
        changed = await self._change(
            "INSERT INTO processed_events (platform, event_id, processed_at) VALUES (?, ?, ?)"
            " ON CONFLICT (platform, event_id) DO NOTHING",
            (platform, event_id, to_db(at)),
        )
        return changed == 1

    async def event_processed(self, platform: str, event_id: str) -> bool:
        row = await self._fetch_one(
            "SELECT 1 FROM processed_events WHERE platform = ? AND event_id = ?",
            (platform, event_id),
        )
        return row is not None

    # reports

    async def leaderboard(
        self, channel_id: int, since: datetime | None, limit: int = 10
    ) -> list[LeaderboardRow]:
        floor = "" if since is None else to_db(since)  # every stored time sorts after ''
        rows = await self._fetch(LEADERBOARD, (channel_id, floor, limit))
        return [
            LeaderboardRow(
                rank=rank,
                member_id=row[0],
                member_name=row[1] or row[2],
                points=row[3],
                answers=row[4],
            )
            for rank, row in enumerate(rows, start=1)
        ]

    async def member_history(self, channel_id: int, member_id: int) -> MemberHistory:
        standing = await self._fetch_one(MEMBER_STANDING, (channel_id, member_id))
        topics = await self._fetch(
            "SELECT q.topic, COUNT(*) FROM answers a"
            " JOIN rounds r ON r.id = a.round_id JOIN questions q ON q.id = r.question_id"
            " WHERE a.channel_id = ? AND a.member_id = ? AND a.scoring = 1"
            " GROUP BY q.topic ORDER BY q.topic",
            (channel_id, member_id),
        )
        scheduled = await self._fetch(
            "SELECT id FROM rounds WHERE channel_id = ? AND scheduled = 1 ORDER BY number",
            (channel_id,),
        )
        answered = await self._fetch(
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
        )

    async def channel_stats(self, channel_id: int) -> ChannelStats:
        row = await self._fetch_one(CHANNEL_STATS, {"channel": channel_id})
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

    async def outbox_counts(self) -> dict[str, int]:
        rows = await self._fetch("SELECT state, COUNT(*) AS n FROM outbox GROUP BY state")
        return {row["state"]: row["n"] for row in rows}

    # multi-part sends not yet complete (adapters.unfinished_sends.SendProgress)

    async def unfinished_card(self, key: str) -> list[str] | None:
        row = await self._fetch_one(
            "SELECT message_ids FROM unfinished_cards WHERE key = ?", (key,)
        )
        return None if row is None else [str(part) for part in json.loads(row[0])]

    async def begin_card(self, key: str) -> None:
        await self._change(
            "INSERT INTO unfinished_cards (key) VALUES (?) ON CONFLICT (key) DO NOTHING", (key,)
        )

    async def record_card_part(self, key: str, message_id: str) -> None:
        await self._change(
            "INSERT INTO unfinished_cards (key, message_ids) VALUES (?, json_array(?))"
            " ON CONFLICT (key) DO UPDATE"
            " SET message_ids = json_insert(unfinished_cards.message_ids, '$[#]', ?)",
            (key, message_id, message_id),
        )

    async def finish_card(self, key: str) -> None:
        await self._change("DELETE FROM unfinished_cards WHERE key = ?", (key,))

    # small key/value facts

    async def get_meta(self, key: str) -> str | None:
        row = await self._fetch_one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self._change(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )


def _insert_drafts(conn: sqlite3.Connection, drafts: Sequence[OutboxDraft], now: str) -> int:
    """Queue the drafts' actions (a key already queued stays as it is); how many are new."""
    cursor = conn.executemany(
        "INSERT INTO outbox (round_id, kind, key, state, attempts, next_attempt_at,"
        " created_at, updated_at) VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)"
        " ON CONFLICT (key) DO NOTHING",
        [(d.round_id, d.kind.value, d.key, now, now, now) for d in drafts],
    )
    return max(cursor.rowcount, 0)


def _clip(error: str) -> str:
    return error if len(error) <= MAX_ERROR_LENGTH else error[: MAX_ERROR_LENGTH - 1] + "…"


def _now_text() -> str:
    """Wall-clock time for bookkeeping columns the protocol passes no time for."""
    return to_db(datetime.now(UTC))
