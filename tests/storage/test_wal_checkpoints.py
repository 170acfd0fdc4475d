"""WAL checkpoints run beside the writer, never inside a member's commit.

SQLite only: the WAL file and its checkpoints are SQLite's; the PostgreSQL server runs
its own."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

from storage.sqlite.store import SqliteStore
from storage.sqlite.wal_checkpoints import WalCheckpointer


async def writer_pragma(store: SqliteStore, name: str) -> int:
    assert store.database.conn is not None
    async with store.database.conn.execute(f"PRAGMA {name}") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def commit_a_row(store: SqliteStore, value: str) -> None:
    async with store.database.transaction() as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS scratch (value TEXT)")
        await conn.execute("INSERT INTO scratch (value) VALUES (?)", (value,))


def rows_in_main_file_alone(db: Path, copy: Path) -> list[str]:
    """The rows the database file holds without its WAL (copied without the -wal file)."""
    shutil.copyfile(db, copy)
    with closing(sqlite3.connect(copy)) as conn:
        try:
            return [row[0] for row in conn.execute("SELECT value FROM scratch ORDER BY value")]
        except sqlite3.OperationalError:  # the table itself is still only in the WAL
            return []


async def test_no_commit_of_the_writer_runs_a_checkpoint(tmp_path: Path) -> None:
    # A checkpoint inside a commit syncs the database file while a reveal waits.
    async with SqliteStore.open(tmp_path / "q.db") as store:
        assert await writer_pragma(store, "wal_autocheckpoint") == 0


async def test_the_checkpointer_moves_committed_pages_into_the_database_file(
    tmp_path: Path,
) -> None:
    db = tmp_path / "q.db"
    async with SqliteStore.open(db) as store:
        assert store.checkpoints is not None
        await store.checkpoints.checkpoint()
        await commit_a_row(store, "answer")
        assert rows_in_main_file_alone(db, tmp_path / "before.db") == []

        assert await store.checkpoints.checkpoint() is True

        assert rows_in_main_file_alone(db, tmp_path / "after.db") == ["answer"]


async def test_an_idle_database_is_not_checkpointed_again(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "q.db") as store:
        assert store.checkpoints is not None
        await commit_a_row(store, "one")
        assert await store.checkpoints.checkpoint() is True
        assert await store.checkpoints.checkpoint() is False
        await commit_a_row(store, "two")
        assert await store.checkpoints.checkpoint() is True


async def test_closing_the_store_leaves_every_commit_in_the_database_file(
    tmp_path: Path,
) -> None:
    db = tmp_path / "q.db"
    async with SqliteStore.open(db) as store:
        await commit_a_row(store, "kept")
    assert rows_in_main_file_alone(db, tmp_path / "copy.db") == ["kept"]


async def test_a_database_not_in_wal_mode_has_no_checkpointer(tmp_path: Path) -> None:
    async with SqliteStore.open(":memory:") as store:
        assert store.checkpoints is None
        assert await writer_pragma(store, "wal_autocheckpoint") == 1000


async def test_closing_waits_for_a_checkpoint_already_running_in_its_thread(
    tmp_path: Path,
) -> None:
    checkpointer = WalCheckpointer(tmp_path / "q.db")
    started, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []
    real_checkpoint = checkpointer._checkpoint

    def slow_checkpoint() -> bool:
        started.set()
        release.wait(timeout=10)
        try:
            return real_checkpoint()
        except BaseException as error:  # the connection closed under the thread
            errors.append(error)
            raise

    checkpointer._checkpoint = slow_checkpoint  # type: ignore[method-assign]
    running = asyncio.create_task(checkpointer.checkpoint())
    await asyncio.to_thread(started.wait, 10)
    closing = asyncio.create_task(checkpointer.close())

    finished, _ = await asyncio.wait({closing}, timeout=0.2)
    assert not finished, "close() shut the connection while a checkpoint was running"

    release.set()
    await closing
    assert await running is True
    assert errors == []
