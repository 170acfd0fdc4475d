"""Two replicas, a and b, on one store: two ``QuizService`` each with a store of its own
opened on the same database (one SQLite file, or one PostgreSQL schema), posting to one
fake workspace on one injected clock.

The clock sits years ahead of the wall clock, so APScheduler (which decides due-ness by
the wall clock) never fires a job by itself: a test fires a slot by calling its job.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.channel_sync import ChannelSync
from bot.kernel.config import QuizConfig
from bot.service import QuizService
from bot.store import Store
from questions.catalog import Catalog
from storage.postgres.store import DEFAULT_LEASE, PostgresStore
from storage.sqlite.store import SqliteStore
from tests.conftest import sample_pack
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness
from tests.storage.backends import postgres_schema
from tests.storage.test_replicas_see_channel_changes import listener_backends

# Wednesday 2031-01-15 06:00 UTC
START = datetime(2031, 1, 15, 6, 0, tzinfo=UTC)
NOTICE_SECONDS = 10.0  # how long a notice may take to arrive before the test gives up


@dataclass
class Pair:
    a: QuizHarness
    b: QuizHarness
    platform: FakePlatform
    clock: FakeClock
    url: str | None  # the PostgreSQL schema's URL; None on SQLite
    names: tuple[str, str]  # a's and b's names in outbox claims (PostgreSQL)


@asynccontextmanager
async def _service(
    backend: str,
    where: str | Path,
    name: str,
    platform: FakePlatform,
    clock: FakeClock,
    *,
    background: bool,
    lease: timedelta,
) -> AsyncIterator[QuizService]:
    async with AsyncExitStack() as stack:
        store: Store
        if backend == "sqlite":
            store = await stack.enter_async_context(SqliteStore.open(where))
        else:
            store = await stack.enter_async_context(
                PostgresStore.open(str(where), replica=name, lease=lease)
            )
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=Catalog([sample_pack()]),
            clock=clock,
            config=QuizConfig(default_schedule=None, replicas_share_store=backend == "postgres"),
            rng=random.Random(7),
            background=background,
        )
        await service.start()
        try:
            yield service
        finally:
            await service.stop()


@asynccontextmanager
async def two_replicas(
    backend: str,
    tmp_path: Path,
    *,
    background: tuple[bool, bool] = (False, False),
    lease: timedelta = DEFAULT_LEASE,
) -> AsyncIterator[Pair]:
    """Replicas a and b, both started, on one database of ``backend``."""
    platform = FakePlatform()
    clock = FakeClock(START)
    run = uuid.uuid4().hex[:8]  # names no other test's replica has
    names = (f"a-{run}", f"b-{run}")
    async with AsyncExitStack() as stack:
        url: str | None = None
        where: str | Path = tmp_path / "quiz.db"
        if backend == "postgres":
            url = await stack.enter_async_context(postgres_schema())
            where = url
        a, b = [
            await stack.enter_async_context(
                _service(backend, where, name, platform, clock, background=runs, lease=lease)
            )
            for name, runs in zip(names, background, strict=True)
        ]
        yield Pair(
            # event ids of their own: a delivery id seen by a is a duplicate on b
            QuizHarness(a, platform, clock),
            QuizHarness(b, platform, clock, _events=itertools.count(100_000)),
            platform,
            clock,
            url,
            names,
        )


def sync_of(quiz: QuizHarness) -> ChannelSync:
    sync = quiz.service.channel_sync
    assert sync is not None, "a PostgreSQL store follows the other replicas' changes"
    return sync


async def until(condition: Callable[[], bool]) -> bool:
    """Whether ``condition`` holds within ``NOTICE_SECONDS`` (a notice from PostgreSQL
    arrives in a few milliseconds); False when it never did."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + NOTICE_SECONDS
    while not condition():
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(0.01)
    return True


async def drop_listener(pair: Pair) -> None:
    """The server ends b's listening connection (a restart, a network cut)."""
    assert pair.url is not None
    [pid] = await listener_backends(pair.url, pair.names[1])
    store = pair.b.service.store
    assert isinstance(store, PostgresStore)
    await store.database.pooled().execute("SELECT pg_terminate_backend($1)", pid)
    assert await until(lambda: not sync_of(pair.b).listening)
