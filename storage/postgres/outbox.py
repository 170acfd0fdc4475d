"""The outbox on PostgreSQL, shared by any number of replicas: leases.

``due_actions`` claims what it returns with ``FOR UPDATE SKIP LOCKED`` (``claimed_by``,
``lease_until``), so two replicas never take the same action while the lease runs; when
a replica dies, its actions fall due again once their lease ends, and the next attempt
checks ``find_sent`` first as after any crash. An action is released, retried, failed or
completed only while it is still this replica's.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.kernel.models import ActionKind, OutboxAction, OutboxDraft
from storage.errors import NotFoundError
from storage.postgres.database import PostgresDatabase
from storage.records import OUTBOX_COLUMNS, action_from_row, draft_row
from storage.sql.outbox import OutboxQueries, clip_error
from storage.timestamps import from_db, to_db

_INSERT_DRAFTS = """
INSERT INTO outbox (round_id, kind, key, target_platform, target_workspace, target_channel,
    card, state, attempts, next_attempt_at, created_at, updated_at)
SELECT round_id, kind, key, target_platform, target_workspace, target_channel, card,
    'pending', 0, due, $9, $9
FROM unnest($1::integer[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
    $7::text[], $8::text[]) AS drafts (round_id, kind, key, target_platform, target_workspace,
    target_channel, card, due)
ON CONFLICT (key) DO NOTHING
"""


# An action this replica may begin to send ($1: now, $2: this replica): still pending, and
# unclaimed, claimed by this replica, or claimed by one whose lease ended.
_OURS_TO_SEND = "state = 'pending' AND (claimed_by IS NULL OR claimed_by = $2 OR lease_until <= $1)"
# ... and due ($1: now): a copy read before a retry put it off must not start it early.
_DUE = "next_attempt_at <= $1"


class PostgresOutbox(OutboxQueries):
    """The actions waiting to be sent, claimed by one replica at a time (``LeasedClaims``)."""

    def __init__(self, db: PostgresDatabase, *, replica: str, lease: timedelta) -> None:
        super().__init__(db)
        self._pg = db
        self.replica = replica  # who claims outbox actions
        self._lease = lease

    @property
    def outbox_lease(self) -> timedelta:
        """How long an outbox claim holds an action off the other replicas."""
        return self._lease

    async def enqueue(self, drafts: Sequence[OutboxDraft], at: datetime) -> int:
        async with self._pg.session() as session:
            return await insert_drafts(session.conn, drafts, to_db(at))

    def _lease_end(self, at: datetime) -> str:
        return to_db(at + self._lease)

    async def due_actions(
        self, now: datetime, limit: int = 100, *, platforms: Collection[str] | None = None
    ) -> list[OutboxAction]:
        """Claim up to ``limit`` due actions for this replica (skipping those another
        replica holds a live lease on), oldest first."""
        moment = to_db(now)
        params: list[Any] = [self.replica, self._lease_end(now), moment, limit]
        platform_filter = platforms_condition(platforms, params)
        rows = await self._pg.pooled().fetch(
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
        platform_filter = platforms_condition(platforms, params)
        value = await self._pg.pooled().fetchval(
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
        row = await self._pg.pooled().fetchrow(
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
        await self._pg.pooled().execute(
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
        row = await self._pg.pooled().fetchrow(
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
        row = await self._pg.pooled().fetchrow(
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
        async with self._pg.session() as session:
            await complete(session.conn, action_id, result_ref, to_db(at))

    async def complete_and_begin(
        self, done_id: int, result_ref: str | None, next_id: int, at: datetime
    ) -> OutboxAction | None:
        """:meth:`complete_action` and :meth:`begin_attempt` in one transaction."""
        now = to_db(at)
        async with self._pg.session() as session:
            await complete(session.conn, done_id, result_ref, now)
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


async def complete(conn: Any, action_id: int, result_ref: str | None, now: str) -> None:
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


async def insert_drafts(conn: Any, drafts: Sequence[OutboxDraft], now: str) -> int:
    """Queue the drafts' actions (a key already queued stays as it is); how many are new."""
    if not drafts:
        return 0
    columns = list(zip(*(draft_row(d, now) for d in drafts), strict=True))
    status = await conn.execute(_INSERT_DRAFTS, *(list(c) for c in columns), now)
    return int(status.rsplit(" ", 1)[-1])


def platforms_condition(platforms: Collection[str] | None, params: list[Any]) -> str:
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
