"""The PostgreSQL implementation of the ``Store`` port (asyncpg), for several replicas.

The aggregates are SQLite's (the schema and nearly all statements are portable; see
``storage.sql_dialect``) over a pooled PostgreSQL connection (``postgres_connection``);
``postgres_rounds`` and ``postgres_members`` redo the methods that differ: transactions
written as SQLite-thread functions, outbox leases, and inserts that must say what they
inserted when other replicas write at the same time.

asyncpg is an optional dependency (``quizbot[postgres]``), imported only here and only
when a ``postgresql://`` URL is opened.
"""

from __future__ import annotations

import functools
import os
import socket
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any, Self

from storage.errors import StoreUnavailableError
from storage.migrations import MigrationReport
from storage.passwords import hide_password
from storage.postgres_channels import PostgresChannels
from storage.postgres_members import PostgresMembers
from storage.postgres_migrations import migrate_postgres
from storage.postgres_rounds import PostgresRounds
from storage.sqlite_bank import SqliteBank
from storage.sqlite_installations import SqliteInstallationStore
from storage.sqlite_learning import SqliteLearningStore
from storage.sqlite_practice import SqlitePracticeStore
from storage.sqlite_recaps import SqliteRecapStore
from storage.sqlite_reminders import SqliteReminderStore
from storage.sqlite_reports import SqliteReports

DEFAULT_LEASE = timedelta(seconds=60)
_ID_TABLES = """
SELECT table_name FROM information_schema.columns
WHERE column_name = 'id' AND table_schema = current_schema()
"""


def replica_name() -> str:
    """This process's name in outbox claims: host, pid and a random part (pids repeat)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class PostgresStore(PostgresRounds, PostgresMembers, PostgresChannels, SqliteReports):
    """``Store`` on PostgreSQL. Open with ``async with PostgresStore.open(url) as store``."""

    def __init__(self, pool: Any, url: str, id_tables: frozenset[str], **lease: Any) -> None:
        """Use :meth:`open` or :meth:`connect`."""
        super().__init__(pool, url, id_tables, **lease)
        self.migration: MigrationReport | None = None
        self.learning = SqliteLearningStore(self._transaction, self._fetch)
        self.bank = SqliteBank(self._fetch, self._transaction, self._announce)
        self.recaps = SqliteRecapStore(self._transaction, self._fetch)
        self.practice = SqlitePracticeStore(self._transaction, self._fetch)
        self.reminders = SqliteReminderStore(self._transaction, self._fetch, self._announce)
        self.installations = SqliteInstallationStore(self._transaction, self._fetch)
        # One object serves these aggregates until each has a class of its own.
        self.channels = self.meta = self.rounds = self.outbox = self
        self.answers = self.deliveries = self.reports = self.unfinished_cards = self

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        run_migrations: bool = True,
        replica: str | None = None,
        lease: timedelta = DEFAULT_LEASE,
        max_connections: int = 10,
    ) -> Self:
        """Open a pool on ``url`` and apply pending migrations (under an advisory lock)."""
        import asyncpg

        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=max_connections)
        except (OSError, TimeoutError, asyncpg.PostgresError) as error:
            raise StoreUnavailableError(
                f"cannot connect to PostgreSQL at {hide_password(url)}: {error}"
            ) from error
        try:
            migration = None
            async with pool.acquire() as conn:
                if run_migrations:
                    migration = await migrate_postgres(conn)
                tables = frozenset(row[0] for row in await conn.fetch(_ID_TABLES))
            store = cls(
                pool, hide_password(url), tables, replica=replica or replica_name(), lease=lease
            )
            store.migration = migration
            name = f"quizbot listener {store.replica}"
            store._listener_connect = functools.partial(
                asyncpg.connect, url, server_settings={"application_name": name[:63]}
            )
        except BaseException:
            await pool.close()
            raise
        store._answers.start()
        return store

    @classmethod
    @asynccontextmanager
    async def open(cls, url: str, **options: Any) -> AsyncIterator[Self]:
        store = await cls.connect(url, **options)
        try:
            yield store
        finally:
            await store.close()

    async def close(self) -> None:
        """Commit what is queued, then close the pool."""
        if self._pool is None:
            return
        try:
            await self._answers.close()
        finally:
            pool, self._pool = self._pool, None
            await pool.close()

    @property
    def closed(self) -> bool:
        return self._pool is None
