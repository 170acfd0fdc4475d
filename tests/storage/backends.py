"""The two store backends the contract tests run against: SQLite in a temporary file, and
PostgreSQL in a schema of its own per test (dropped afterwards), at
``QUIZBOT_TEST_POSTGRES_URL``. With no server answering there, the PostgreSQL half skips
and says which URL it tried."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bot.store import Store
from storage.sqlite.store import SqliteStore

if TYPE_CHECKING:
    from storage.postgres.store import PostgresStore

POSTGRES_URL = os.environ.get(
    "QUIZBOT_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
BACKENDS = ["sqlite", "postgres"]
_unreachable: list[str] = []  # the reason, once a probe failed (probed once per run)


async def _require_postgres() -> None:
    if _unreachable:
        pytest.skip(_unreachable[0])
    try:
        import asyncpg

        conn = await asyncio.wait_for(asyncpg.connect(POSTGRES_URL), timeout=3)
        await conn.close()
    except Exception as error:
        _unreachable.append(
            f"no PostgreSQL answered at {POSTGRES_URL} ({type(error).__name__}); "
            "set QUIZBOT_TEST_POSTGRES_URL to run the PostgreSQL half"
        )
        pytest.skip(_unreachable[0])


@asynccontextmanager
async def postgres_schema() -> AsyncIterator[str]:
    """A URL whose tables live in a new schema, dropped when done."""
    await _require_postgres()
    import asyncpg

    schema = f"quizbot_test_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(POSTGRES_URL)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        separator = "&" if "?" in POSTGRES_URL else "?"
        yield f"{POSTGRES_URL}{separator}search_path={schema}"
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


Opener = Callable[[], AbstractAsyncContextManager["SqliteStore | PostgresStore"]]


@asynccontextmanager
async def reopenable_store(backend: str, tmp_path: Path) -> AsyncIterator[Opener]:
    """Opens the same database as often as asked (a restart), until the block ends."""
    if backend == "sqlite":
        yield lambda: SqliteStore.open(tmp_path / "quiz.db")
        return
    from storage.postgres.store import PostgresStore

    async with postgres_schema() as url:
        yield lambda: PostgresStore.open(url)


@asynccontextmanager
async def open_store(backend: str, tmp_path: Path, **options: Any) -> AsyncIterator[Store]:
    if backend == "sqlite":
        async with SqliteStore.open(tmp_path / "quiz.db", **options) as store:
            yield store
        return
    from storage.postgres.store import PostgresStore

    async with postgres_schema() as url, PostgresStore.open(url, **options) as pg:
        yield pg
