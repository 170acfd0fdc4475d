"""Two replicas each start a round in one channel at the same moment (two admins'
`/quiz now`): every round closed by the next question gets its outline, whichever
replica closed it.

On PostgreSQL the race is made to happen, not hoped for: a transaction of the test's own
holds a table that a's round creation reads last, so a's transaction stays open while b
starts its own; the test lets a finish only once b is waiting on a.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from bot.kernel.models import ActionKind, RoundState
from tests.storage.backends import BACKENDS
from tests.storage.replica_pair import NOTICE_SECONDS, Pair, two_replicas
from tests.store_reads import round_actions

# The pids of the backends waiting on one of the given pids, however indirectly.
_WAITING_ON = """
WITH RECURSIVE waiting(pid) AS (
    SELECT unnest($1::int[])
    UNION
    SELECT a.pid FROM pg_stat_activity a, waiting w WHERE w.pid = ANY(pg_blocking_pids(a.pid))
)
SELECT pid FROM waiting WHERE pid <> ALL($1::int[])
"""


class Hold:
    """A transaction of the test's own holding ``notice_members`` (on PostgreSQL), which
    a new round's transaction reads last; nothing on SQLite, whose writers take turns."""

    def __init__(self, conn: asyncpg.Connection | None) -> None:
        self._conn = conn

    async def until_waiting(self, count: int, started: asyncio.Task[object]) -> None:
        """Until ``count`` transactions wait, directly or behind another, on the hold; on
        SQLite, until ``started`` is done (its transaction and the other's take turns)."""
        if self._conn is None:
            await asyncio.wait({started})
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + NOTICE_SECONDS
        mine = [self._conn.get_server_pid()]
        while len(await self._conn.fetch(_WAITING_ON, mine)) < count:
            assert loop.time() < deadline, f"{count} transaction(s) never waited on the hold"
            await asyncio.sleep(0.01)

    async def release(self) -> None:
        if self._conn is not None:
            await self._conn.execute("COMMIT")


@asynccontextmanager
async def hold(pair: Pair) -> AsyncIterator[Hold]:
    if pair.url is None:
        yield Hold(None)
        return
    conn = await asyncpg.connect(pair.url)
    try:
        await conn.execute("BEGIN")
        await conn.execute("LOCK TABLE notice_members IN ACCESS EXCLUSIVE MODE")
        held = Hold(conn)
        try:
            yield held
        finally:
            if conn.is_in_transaction():
                await held.release()
    finally:
        await conn.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_round_closed_while_another_replica_opened_one_gets_its_outline(
    backend: str, tmp_path: Path
) -> None:
    async with two_replicas(backend, tmp_path) as pair:
        await pair.a.command("now")  # round 1, posted and open
        async with hold(pair) as held:
            on_a = asyncio.create_task(pair.a.command("now", settle=False))
            await held.until_waiting(1, on_a)  # a closed round 1 and opened round 2, uncommitted
            on_b = asyncio.create_task(pair.b.command("now", settle=False))
            await held.until_waiting(2, on_b)  # b is under way, waiting on a
            await held.release()
            await asyncio.gather(on_a, on_b)
        for quiz in (pair.a, pair.b, pair.a):
            await quiz.service.settle()

        latest = await pair.a.round()
        assert latest.number == 3, "each `/quiz now` started a round"
        rounds = [
            await pair.a.service.store.rounds.round_by_number(latest.channel_id, number)
            for number in (1, 2)
        ]
        for round_ in rounds:
            assert round_ is not None and round_.state is RoundState.CLOSED
            kinds = {a.kind for a in await round_actions(pair.a.service.store, round_.id)}
            assert ActionKind.OUTLINE in kinds, f"round {round_.number} closed with no outline"
            outlines = [m for m in pair.platform.messages if m.key == f"round:{round_.id}:outline"]
            assert len(outlines) == 1, f"round {round_.number}'s outline posted once"
