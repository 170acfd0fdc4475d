"""How durable a commit is: SQLite's ``synchronous`` mode, NORMAL unless the operator asks FULL.

SQLite only: the mode is a PRAGMA of its connection; PostgreSQL's durability is the
server's configuration, not the bot's."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from adapters.ops import runtime
from bot.settings import Settings
from storage.sqlite.store import SqliteStore

NORMAL, FULL = 1, 2  # what PRAGMA synchronous reports


async def synchronous_of(store: SqliteStore) -> int:
    assert store.database.conn is not None
    async with store.database.conn.execute("PRAGMA synchronous") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def test_commits_are_synchronous_normal_by_default(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "q.db") as store:
        assert await synchronous_of(store) == NORMAL


async def test_full_is_used_when_asked(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "q.db", synchronous="full") as store:
        assert await synchronous_of(store) == FULL


async def test_an_unknown_mode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="synchronous must be normal or full, not 'off'"):
        async with SqliteStore.open(tmp_path / "q.db", synchronous="off"):
            pass


async def test_quizbot_run_opens_the_store_with_the_configured_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    real_open = SqliteStore.open

    @asynccontextmanager
    async def recording_open(path: Path, **options: Any) -> AsyncIterator[SqliteStore]:
        async with real_open(path, **options) as store:
            seen.append(await synchronous_of(store))
            yield store

    monkeypatch.setattr(SqliteStore, "open", recording_open)
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        db_path=tmp_path / "q.db",
        sqlite_synchronous="full",
    )
    assert await runtime.run_bot(settings, stdin=io.StringIO(""), stdout=io.StringIO()) == 0
    assert seen == [FULL]
