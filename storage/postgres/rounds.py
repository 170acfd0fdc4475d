"""Rounds on PostgreSQL, shared by any number of replicas.

A slot's round is created by whichever replica inserts it first: the others hit the
UNIQUE(channel, scheduled_for) key, roll back and get None. Creating a round, adding a
reveal reactor and revealing are each one transaction of awaited statements.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.kernel.bounded_cache import BoundedCache
from bot.kernel.models import ActionKind, Delivery, LaterAction, Revealed, Round
from storage.postgres.database import PostgresDatabase, changed_rows
from storage.postgres.outbox import insert_drafts
from storage.records import ROUND_COLUMNS, action_from_row, round_from_row
from storage.sql.deliveries import record_delivery_in, refuse_duplicate_in
from storage.sql.rounds import (
    PENDING_OF_ROUND,
    QUEUE_NOTICE,
    REVEAL,
    DraftsFor,
    RoundQueries,
    closing_the_open_round,
    later_rows,
    notice_params,
)
from storage.timestamps import to_db

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


_INSERT_LATER_ACTION = """
INSERT INTO outbox (round_id, kind, key, state, attempts, next_attempt_at, created_at, updated_at)
VALUES ($1, $2, $3, 'pending', 0, $4, $5, $5)
ON CONFLICT (key) DO NOTHING
"""


# Taken first by a new round's transaction. The channel's row: one new round of a channel
# at a time, so each statement that closes the open round (read committed: each sees what
# committed before it began) sees the same open round, never one another replica opened
# meanwhile. The open round's row: a reveal or a skip of it committing meanwhile is seen
# by all of them too (a skipped round's outline is not queued).
_LOCK_CHANNEL = "SELECT 1 FROM channels WHERE id = $1 FOR NO KEY UPDATE"
_LOCK_OPEN_ROUND = "SELECT 1 FROM rounds WHERE channel_id = $1 AND state = 'open' FOR NO KEY UPDATE"


class SlotTaken(Exception):
    """Another replica created the slot's round first (rolls the transaction back)."""


class PostgresRounds(RoundQueries):
    """Rounds and the questions they ask, on PostgreSQL."""

    def __init__(self, db: PostgresDatabase, round_channels: BoundedCache[int, int]) -> None:
        super().__init__(db, round_channels)
        self._pg = db

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
        try:
            async with self._pg.session() as session:
                conn = session.conn
                await conn.execute(_LOCK_CHANNEL, channel_id)
                await conn.execute(_LOCK_OPEN_ROUND, channel_id)
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
                for sql, params in closing_the_open_round(now, channel_id):
                    await session.execute(sql, params)
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
                for kind, key, due in later_rows(created.id, later):
                    await conn.execute(
                        _INSERT_LATER_ACTION, created.id, kind.value, key, to_db(due), now
                    )
                await session.execute(QUEUE_NOTICE, notice_params(created.id, now, channel_id))
        except SlotTaken:
            return None
        self._round_channels.put(created.id, channel_id)
        return created

    async def add_reveal_reactor(
        self, round_id: int, member_id: int, *, at: datetime, delivery: Delivery | None = None
    ) -> int:
        now = to_db(at)
        async with self._pg.session() as session:
            await refuse_duplicate_in(session, delivery)
            status = await session.conn.execute(
                "INSERT INTO reveal_reactors (round_id, member_id, reacted_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (round_id, member_id) DO NOTHING",
                round_id,
                member_id,
                now,
            )
            if changed_rows(status) == 1:
                await record_delivery_in(session, delivery, now)
            count = await session.conn.fetchval(
                "SELECT COUNT(*) FROM reveal_reactors WHERE round_id = $1", round_id
            )
        return int(count)

    async def _reveal(
        self,
        round_id_sql: str,
        params: Sequence[Any],
        now: str,
        drafts_for: DraftsFor,
        delivery: Delivery | None,
    ) -> Revealed | None:
        async with self._pg.session() as session:
            await refuse_duplicate_in(session, delivery)
            sql = REVEAL.format(round_id=round_id_sql)
            revealed = await session.fetch_one(sql, (now, *params))
            if revealed is None:
                return None
            round_ = round_from_row(revealed)
            await insert_drafts(session.conn, drafts_for(round_.id), now)
            await record_delivery_in(session, delivery, now)
            pending = await session.fetch(PENDING_OF_ROUND, (round_.id,))
        return Revealed(round_, tuple(action_from_row(row) for row in pending))
