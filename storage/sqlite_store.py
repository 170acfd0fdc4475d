"""The SQLite implementation of the ``Store`` port (aiosqlite), one aggregate per module.

:class:`SqliteStore` opens and closes the connection; what it stores is implemented
aggregate by aggregate in ``sqlite_channels``, ``sqlite_rounds``, ``sqlite_members``
``sqlite_reports`` and ``sqlite_unfinished_cards``, over the connection of
``sqlite_connection``.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Self

import aiosqlite

from storage.errors import StorageError
from storage.migrations import MigrationReport, migrate
from storage.sqlite_bank import SqliteBank
from storage.sqlite_channels import SqliteChannels
from storage.sqlite_installations import SqliteInstallationStore
from storage.sqlite_learning import SqliteLearningStore
from storage.sqlite_members import SqliteMembers
from storage.sqlite_practice import SqlitePracticeStore
from storage.sqlite_recaps import SqliteRecapStore
from storage.sqlite_reminders import SqliteReminderStore
from storage.sqlite_reports import SqliteReports
from storage.sqlite_rounds import SqliteRounds
from storage.sqlite_unfinished_cards import SqliteUnfinishedCards
from storage.wal_checkpoints import WalCheckpointer

log = logging.getLogger(__name__)

DEFAULT_BUSY_TIMEOUT_MS = 5000
# In WAL mode NORMAL syncs at checkpoints only: a power loss (not a crash of the
# process) can undo the last commits. FULL syncs the WAL at every commit.
SYNCHRONOUS_MODES = {"normal": "NORMAL", "full": "FULL"}


class SqliteStore(
    SqliteChannels, SqliteRounds, SqliteMembers, SqliteReports, SqliteUnfinishedCards
):
    """``Store`` on SQLite. Open with ``async with SqliteStore.open(path) as store``."""

    def __init__(self, conn: aiosqlite.Connection, path: Path | str) -> None:
        """Use :meth:`open` or :meth:`connect`; this wraps an already configured connection."""
        super().__init__(conn, path)
        self.migration: MigrationReport | None = None
        self.checkpoints: WalCheckpointer | None = None
        self.learning = SqliteLearningStore(self._transaction, self._fetch)
        self.bank = SqliteBank(self._fetch, self._transaction)
        self.recaps = SqliteRecapStore(self._transaction, self._fetch)
        self.practice = SqlitePracticeStore(self._transaction, self._fetch)
        self.reminders = SqliteReminderStore(self._transaction, self._fetch)
        self.installations = SqliteInstallationStore(self._transaction, self._fetch)
        # One object serves these aggregates until each has a class of its own.
        self.channels = self.meta = self.rounds = self.outbox = self
        self.answers = self.deliveries = self.reports = self.unfinished_cards = self

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
        if not Path(path).parent.is_dir():  # before aiosqlite, whose thread outlives the failure
            raise StorageError(f"the directory {Path(path).parent} does not exist")
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            journal = await (await conn.execute("PRAGMA journal_mode = WAL")).fetchone()
            in_wal = journal is not None and str(journal[0]).lower() == "wal"
            await conn.execute(f"PRAGMA synchronous = {mode}")
            await conn.execute("PRAGMA foreign_keys = ON")
            if in_wal:  # checkpoints run beside the writer, not inside one of its commits
                await conn.execute("PRAGMA wal_autocheckpoint = 0")
            store = cls(conn, path)
            if run_migrations:
                store.migration = await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        store._answers.start()
        if in_wal:
            store.checkpoints = WalCheckpointer(path)
            store.checkpoints.start()
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
            if self.checkpoints is not None:
                await self.checkpoints.close()
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
