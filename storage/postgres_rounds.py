"""Rounds and the outbox on PostgreSQL, shared by any number of replicas.

The parts of ``SqliteRounds`` that run as one SQLite-thread function are redone here
with asyncpg, and the outbox gets leases: ``due_actions`` claims what it returns with
``FOR UPDATE SKIP LOCKED`` (``claimed_by``, ``lease_until``), so two replicas never take
the same action while the lease runs; when a replica dies, its actions fall due again
once their lease ends, and the next attempt checks ``find_sent`` first as after any
crash. A slot's round is created by whichever replica inserts it first: the others hit
the UNIQUE(channel, scheduled_for) key, roll back and get None.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.kernel.models import ActionKind, Delivery, OutboxAction, OutboxDraft, Revealed, Round
from storage.blind_queries import queue_blind_answers_sql
from storage.deliveries import record_delivery_in, refuse_duplicate_in
from storage.errors import NotFoundError
from storage.postgres_connection import PgConnection, changed_rows, session_as_aiosqlite
from storage.records import (
    OUTBOX_COLUMNS,
    ROUND_COLUMNS,
    action_from_row,
    draft_row,
    round_from_row,
)
from storage.sqlite_rounds import (
    PENDING_OF_ROUND,
    REVEAL,
    SqliteRounds,
    clip_error,
)
from storage.timestamps import from_db, to_db

_QUEUE_BLIND_ANSWERS = queue_blind_answers_sql("r.channel_id = ?")
_INSERT_ROUND = f"""
INSERT INTO rounds (channel_id, question_id, number, scheduled_for, scheduled, state, created_at)
SELECT $1, $2, COALESCE(MAX(number), 0) + 1, $3, $4, 'open', $5 FROM rounds WHERE channel_id = $1
ON CONFLICT DO NOTHING
RETURNING {ROUND_COLUMNS}
"""

_INSERT_ACTIONS = """
INSERT INTO outbox (round_id, kind, key, state, attempts, next_attempt_at, created_at, updated_at)
SELECT round_id, kind, key, 'pending', 0, $4, $4, $4
FROM unnest($1::integer[], $2::text[], $3::text[]) AS drafts (round_id, kind, key)
ON CONFLICT (key) DO NOTHING
"""

_INSERT_DRAFTS = """
INSERT INTO outbox (round_id, kind, key, target_platform, target_workspace, target_channel,
    card, state, attempts, next_attempt_at, created_at, updated_at)
SELECT round_id, kind, key, target_platform, target_workspace, target_channel, card,
    'pending', 0, $8, $8, $8
FROM unnest($1::integer[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
    $7::text[]) AS drafts (round_id, kind, key, target_platform, target_workspace,
    target_channel, card)
ON CONFLICT (key) DO NOTHING
"""


# An action this replica may begin to send ($1: now, $2: this replica): still pending, and
# unclaimed, claimed by this replica, or claimed by one whose lease ended.
_OURS_TO_SEND = "state = 'pending' AND (claimed_by IS NULL OR claimed_by = $2 OR lease_until <= $1)"
# ... and due ($1: now): a copy read before a retry put it off must not start it early.
_DUE = "next_attempt_at <= $1"


class SlotTaken(Exception):
    """Another replica created the slot's round first (rolls the transaction back)."""


class PostgresRounds(PgConnection, SqliteRounds):
    """``RoundStore`` methods that differ on PostgreSQL: transactions and outbox leases."""

    _RELEASE = ", claimed_by = NULL, lease_until = NULL"

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
        try:
            async with self._session() as session:
                conn = session.conn
                taken = await conn.fetchval(
                    "SELECT 1 FROM rounds WHERE channel_id = $1 AND scheduled_for = $2",
                    channel_id,
                    slot,
                )
                if taken is not None:
                    return None
                asked = await conn.fetch(
                    "SELECT question_id, COUNT(*) FROM rounds WHERE channel_id = $1"
                    " GROUP BY question_id",
                    channel_id,
                )
                question_id = choose_question({row[0]: row[1] for row in asked})
                await session.execute(_QUEUE_BLIND_ANSWERS, (now, now, now, channel_id))
                await conn.execute(
                    "UPDATE rounds SET state = 'closed', closed_at = $1"
                    " WHERE channel_id = $2 AND state = 'open'",
                    now,
                    channel_id,
                )
                row = await conn.fetchrow(
                    _INSERT_ROUND, channel_id, question_id, slot, int(scheduled), now
                )
                if row is None:
                    # A replica inserted this slot since our check; undo the close above.
                    raise SlotTaken
                created = round_from_row(row)
                await conn.execute(
                    _INSERT_ACTIONS,
                    [created.id] * len(actions),
                    [kind.value for kind in actions],
                    [f"round:{created.id}:{kind.value}" for kind in actions],
                    now,
                )
        except SlotTaken:
            return None
        self._round_channels.put(created.id, channel_id)
        return created

    async def add_reveal_reactor(
        self, round_id: int, member_id: int, *, at: datetime, delivery: Delivery | None = None
    ) -> int:
        now = to_db(at)
        async with self._session() as session:
            await refuse_duplicate_in(session_as_aiosqlite(session), delivery)
            status = await session.conn.execute(
                "INSERT INTO reveal_reactors (round_id, member_id, reacted_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (round_id, member_id) DO NOTHING",
                round_id,
                member_id,
                now,
            )
            if changed_rows(status) == 1:
                await record_delivery_in(session_as_aiosqlite(session), delivery, now)
            count = await session.conn.fetchval(
                "SELECT COUNT(*) FROM reveal_reactors WHERE round_id = $1", round_id
            )
        return int(count)

    async def _reveal(
        self,
        round_id_sql: str,
        params: Sequence[Any],
        now: str,
        drafts_for: Callable[[int], Sequence[OutboxDraft]],
        delivery: Delivery | None,
    ) -> Revealed | None:
        async with self._session() as session:
            conn = session_as_aiosqlite(session)
            await refuse_duplicate_in(conn, delivery)
            sql = REVEAL.format(round_id=round_id_sql)
            revealed = next(iter(await conn.execute_fetchall(sql, (now, *params))), None)
            if revealed is None:
                return None
            round_ = round_from_row(revealed)
            await _insert_drafts(session.conn, drafts_for(round_.id), now)
            await record_delivery_in(conn, delivery, now)
            pending = await conn.execute_fetchall(PENDING_OF_ROUND, (round_.id,))
        return Revealed(round_, tuple(action_from_row(row) for row in pending))

    async def enqueue(self, drafts: Sequence[OutboxDraft], at: datetime) -> int:
        async with self._session() as session:
            return await _insert_drafts(session.conn, drafts, to_db(at))

    # outbox leases

    def _lease_end(self, at: datetime) -> str:
        return to_db(at + self._lease)

    async def due_actions(
        self, now: datetime, limit: int = 100, *, platforms: Collection[str] | None = None
    ) -> list[OutboxAction]:
        """Claim up to ``limit`` due actions for this replica (skipping those another
        replica holds a live lease on), oldest first."""
        moment = to_db(now)
        params: list[Any] = [self.replica, self._lease_end(now), moment, limit]
        platform_filter = _platform_filter(platforms, params)
        rows = await self._pooled().fetch(
            # The CTE is evaluated once: a LIMIT subquery inside the UPDATE may not be.
            "WITH picked AS (SELECT id FROM outbox"
            " WHERE state = 'pending' AND next_attempt_at <= $3"
            " AND (lease_until IS NULL OR lease_until <= $3 OR claimed_by = $1)"
            f"{platform_filter} ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED)"
            " UPDATE outbox SET claimed_by = $1, lease_until = $2 FROM picked"
            " WHERE outbox.id = picked.id"
            f" RETURNING {', '.join('outbox.' + c for c in OUTBOX_COLUMNS.split(', '))}",
            *params,
        )
        return sorted((action_from_row(row) for row in rows), key=lambda action: action.id)

    async def next_due_after(
        self, after: datetime, *, platforms: Collection[str] | None = None
    ) -> datetime | None:
        """The earliest time after ``after`` when a pending action falls due, counting an
        action leased by a replica as due when its lease ends."""
        due = "GREATEST(next_attempt_at, COALESCE(lease_until, next_attempt_at))"
        params: list[Any] = [to_db(after)]
        platform_filter = _platform_filter(platforms, params)
        value = await self._pooled().fetchval(
            f"SELECT MIN({due}) FROM outbox WHERE state = 'pending' AND {due} > $1"
            f"{platform_filter}",
            *params,
        )
        return None if value is None else from_db(value)

    async def begin_attempt(self, action_id: int, at: datetime) -> OutboxAction | None:
        """Count an attempt and renew this replica's lease for the send; None when the
        action is no longer this replica's: done or failed, or claimed by another replica
        whose lease still runs (this one's claim ran out before its turn came, and the
        other took it over: sending it here too would post it twice)."""
        row = await self._pooled().fetchrow(
            "UPDATE outbox SET attempts = attempts + 1, updated_at = $1,"
            " claimed_by = $2, lease_until = $3"
            f" WHERE id = $4 AND {_OURS_TO_SEND} AND {_DUE} RETURNING {OUTBOX_COLUMNS}",
            to_db(at),
            self.replica,
            self._lease_end(at),
            action_id,
        )
        if row is None:
            await self._require_action(action_id)
            return None
        return action_from_row(row)

    async def postpone_actions(
        self, action_ids: Sequence[int], until: datetime, *, at: datetime
    ) -> None:
        """Put off and release only the actions still this replica's: one that another
        replica took over (this one's claim ran out) may be in its send right now, and a
        release would let a third pass send it again."""
        if not action_ids:
            return
        await self._pooled().execute(
            "UPDATE outbox SET next_attempt_at = $3, updated_at = $1,"
            " claimed_by = NULL, lease_until = NULL"
            f" WHERE id = ANY($4::integer[]) AND {_OURS_TO_SEND}",
            to_db(at),
            self.replica,
            to_db(until),
            list(action_ids),
        )

    async def retry_action(
        self, action_id: int, error: str, next_attempt_at: datetime, *, at: datetime
    ) -> None:
        """Schedule another attempt and release the action only while it is still this
        replica's: one that another replica took over (this one's claim ran out) may be in
        its send right now, and a release would let a third pass send it again."""
        row = await self._pooled().fetchrow(
            "UPDATE outbox SET last_error = $3, next_attempt_at = $4, updated_at = $1,"
            " claimed_by = NULL, lease_until = NULL"
            f" WHERE id = $5 AND {_OURS_TO_SEND} RETURNING id",
            to_db(at),
            self.replica,
            clip_error(error),
            to_db(next_attempt_at),
            action_id,
        )
        if row is None:
            await self._require_action(action_id)

    async def fail_action(self, action_id: int, error: str, at: datetime) -> None:
        """Give up on the action only while it is still this replica's: a replica whose
        claim ran out must not fail the send of the one that took it over."""
        row = await self._pooled().fetchrow(
            "UPDATE outbox SET state = 'failed', last_error = $3, updated_at = $1,"
            " claimed_by = NULL, lease_until = NULL"
            f" WHERE id = $4 AND {_OURS_TO_SEND} RETURNING id",
            to_db(at),
            self.replica,
            clip_error(error),
            action_id,
        )
        if row is None:
            await self._require_action(action_id)

    async def complete_action(self, action_id: int, result_ref: str | None, at: datetime) -> None:
        """Mark done once: a replica finishing an action another already completed (its
        lease ran out mid-send) changes nothing."""
        async with self._session() as session:
            await _complete(session.conn, action_id, result_ref, to_db(at))

    async def complete_and_begin(
        self, done_id: int, result_ref: str | None, next_id: int, at: datetime
    ) -> OutboxAction | None:
        """:meth:`complete_action` and :meth:`begin_attempt` in one transaction."""
        now = to_db(at)
        async with self._session() as session:
            await _complete(session.conn, done_id, result_ref, now)
            row = await session.conn.fetchrow(
                "UPDATE outbox SET attempts = attempts + 1, updated_at = $1,"
                f" claimed_by = $2, lease_until = $3 WHERE id = $4 AND {_OURS_TO_SEND}"
                f" AND {_DUE} RETURNING {OUTBOX_COLUMNS}",
                now,
                self.replica,
                self._lease_end(at),
                next_id,
            )
            if row is None:
                exists = await session.conn.fetchval("SELECT 1 FROM outbox WHERE id = $1", next_id)
                if exists is None:
                    raise NotFoundError(f"no outbox action with id {next_id}")
                return None
        return action_from_row(row)


async def _complete(conn: Any, action_id: int, result_ref: str | None, now: str) -> None:
    row = await conn.fetchrow(
        "UPDATE outbox SET state = 'done', result_ref = $1, updated_at = $2,"
        " claimed_by = NULL, lease_until = NULL"
        " WHERE id = $3 AND state <> 'done' RETURNING round_id, kind",
        result_ref,
        now,
        action_id,
    )
    if row is None:
        if await conn.fetchval("SELECT 1 FROM outbox WHERE id = $1", action_id) is None:
            raise NotFoundError(f"no outbox action with id {action_id}")
        return
    column = {ActionKind.QUESTION: "question_message", ActionKind.THREAD: "thread"}.get(
        ActionKind(row["kind"])
    )
    if column is not None and result_ref is not None:
        await conn.execute(
            f"UPDATE rounds SET {column} = $1 WHERE id = $2", result_ref, row["round_id"]
        )


async def _insert_drafts(conn: Any, drafts: Sequence[OutboxDraft], now: str) -> int:
    """Queue the drafts' actions (a key already queued stays as it is); how many are new."""
    if not drafts:
        return 0
    columns = list(zip(*(draft_row(d) for d in drafts), strict=True))
    status = await conn.execute(_INSERT_DRAFTS, *(list(c) for c in columns), now)
    return int(status.rsplit(" ", 1)[-1])


def _platform_filter(platforms: Collection[str] | None, params: list[Any]) -> str:
    """The condition that an outbox row's channel is on ``platforms`` (appended to params)."""
    if platforms is None:
        return ""
    params.append(sorted(platforms))
    names = f"${len(params)}::text[]"
    return (
        f" AND (outbox.target_platform = ANY({names})"
        " OR EXISTS (SELECT 1 FROM rounds r JOIN channels c ON c.id = r.channel_id"
        f" WHERE r.id = outbox.round_id AND c.platform = ANY({names})))"
    )
