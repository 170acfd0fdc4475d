"""A channel's pairing of one week is matched once, whichever replicas perform it: a
replica whose lease ran out while it stored the week's groups (it was stopped, or killed
and its transaction not yet ended) and the replica that took the pairing over store one
matching between them, so each member is in one group and gets one brief."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from zoneinfo import ZoneInfo

import asyncpg
import pytest

from bot.kernel.models import ActionKind, OutboxAction
from bot.pairing.schedule import iso_week, pairing_key
from storage.sql.session import Params, Row, Session
from tests.harness import QuizHarness
from tests.storage.backends import BACKENDS
from tests.storage.replica_pair import Pair, two_replicas

MEMBERS = [f"member{n:02d}" for n in range(20)]
STORING_GROUPS = "INSERT INTO pair_groups"
# How long the test lets replica b try to store its groups while a's transaction is open
# on SQLite, where nothing shows b waiting (its BEGIN IMMEDIATE waits inside the driver).
SQLITE_OVERLAP_SECONDS = 0.3
Transaction = Callable[[], AbstractAsyncContextManager[Session]]


class PausedTransaction:
    """Replica a's store, stopped inside the transaction that stores a week's groups:
    the statements ran, nothing is committed yet."""

    def __init__(self) -> None:
        self.paused = asyncio.Event()
        self.release = asyncio.Event()
        self.backend_pid: int | None = None  # a's PostgreSQL connection, while paused

    def around(self, transaction: Transaction) -> Transaction:
        """The database's ``transaction``, pausing where the groups are stored."""

        @asynccontextmanager
        async def pausing() -> AsyncIterator[Session]:
            async with transaction() as session:
                yield _PausingSession(session, self)

        return pausing


class _PausingSession:
    def __init__(self, session: Session, pause: PausedTransaction) -> None:
        self._session = session
        self._pause = pause

    async def execute(self, sql: str, params: Params = ()) -> int:
        return await self._session.execute(sql, params)

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._session.fetch(sql, params)

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        return await self._session.fetch_one(sql, params)

    async def insert_returning_id(self, sql: str, params: Params = ()) -> int | None:
        return await self._session.insert_returning_id(sql, params)

    async def execute_many(self, sql: str, params: Iterable[Params]) -> None:
        await self._session.execute_many(sql, params)
        if sql.startswith(STORING_GROUPS) and not self._pause.paused.is_set():
            conn = getattr(self._session, "conn", None)
            if conn is not None:  # PostgreSQL: which server process holds the transaction
                self._pause.backend_pid = int(await conn.fetchval("SELECT pg_backend_pid()"))
            self._pause.paused.set()
            await self._pause.release.wait()


async def waits_for(url: str, pid: int) -> bool:
    """Whether a PostgreSQL connection waits for a lock the process ``pid`` holds."""
    conn = await asyncpg.connect(url)
    try:
        blocked = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", pid
        )
    finally:
        await conn.close()
    return bool(blocked)


async def overlap(pair: Pair, pause: PausedTransaction, other: asyncio.Task[None]) -> None:
    """Until b's work is done or b waits for a's open transaction."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + (10.0 if pair.url is not None else SQLITE_OVERLAP_SECONDS)
    while not other.done() and loop.time() < deadline:
        pid = pause.backend_pid
        if pair.url is not None and pid is not None and await waits_for(pair.url, pid):
            return
        await asyncio.sleep(0.01)


async def pairing_action(quiz: QuizHarness) -> OutboxAction:
    [action] = [
        a
        for a in await quiz.service.store.outbox.due_actions(quiz.clock.now())
        if a.kind is ActionKind.PAIRING
    ]
    return action


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_week_stored_by_two_replicas_at_once_pairs_each_member_once(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with two_replicas(backend, tmp_path) as pair:
        a, b = pair.a, pair.b
        await a.command("pair schedule tue 10:00")
        for name in MEMBERS:
            await a.command("pair on", by=name, settle=False)
        channel = await a.service.engine.channel(a.channel)
        assert channel is not None
        assert await a.service.pairings.record(channel, pair.clock.now())
        action = await pairing_action(a)

        pause = PausedTransaction()
        database = a.service.store.database  # type: ignore[attr-defined]
        monkeypatch.setattr(database, "transaction", pause.around(database.transaction))
        first = asyncio.create_task(a.service.pairings.perform(pair.platform, action))
        await asyncio.wait_for(pause.paused.wait(), 10)
        # a's lease ran out with a's groups stored but not committed: b takes the pairing over
        second = asyncio.create_task(b.service.pairings.perform(pair.platform, action))
        await overlap(pair, pause, second)
        pause.release.set()
        await asyncio.gather(first, second)
        monkeypatch.undo()
        await a.service.settle()
        await b.service.settle()

        week = iso_week(pair.clock.now(), ZoneInfo(channel.timezone))
        groups = await a.service.store.pairs.pairing_groups(pairing_key(channel.id, week))
        assert groups is not None
        ids = {await a.service.store.members.member_id(a.member(n)): n for n in MEMBERS}
        times_paired = Counter(ids[m] for g in groups for m in g.members)
        assert times_paired == Counter({name: 1 for name in MEMBERS}), (
            f"{sum(1 for n in times_paired.values() if n > 1)} member(s) paired more than"
            f" once in {week}"
        )
        briefs = Counter(
            m.channel.channel_id.removeprefix("D-")
            for m in pair.platform.messages
            if m.card.title.startswith("Your interviewer brief")
        )
        assert briefs == Counter({name: 1 for name in MEMBERS})
