"""The connection pool the PostgreSQL aggregate stores share, and their statement helpers.

It gives the aggregates the same helpers as ``SqliteConnection`` (``_transaction``,
``_fetch``, ``_fetch_one``, ``_change``) over an asyncpg pool, so their portable SQL runs
unchanged (translated by ``storage.sql_dialect``). Unlike SQLite's one connection there
is no store-wide lock: PostgreSQL isolates concurrent transactions itself.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

from storage.errors import StoreClosedError
from storage.one_hop import T, Work
from storage.sql_dialect import to_postgres
from storage.sqlite_connection import SqliteConnection

if TYPE_CHECKING:
    import sqlite3

    import aiosqlite
    import asyncpg

Params = Sequence[Any] | Mapping[str, Any]
_INSERT_INTO = re.compile(r"^\s*INSERT\s+INTO\s+(?P<table>\w+)", re.IGNORECASE)
_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)


def changed_rows(status: str) -> int:
    """The row count of a command status such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an aggregate reads from an executed statement (a cursor, as aiosqlite has it)."""

    rowcount: int
    lastrowid: int | None = None


class PgSession:
    """One asyncpg connection inside a transaction, with the aiosqlite calls the
    aggregates use: ``execute``, ``execute_fetchall`` and ``executemany``."""

    def __init__(self, conn: asyncpg.Connection, id_tables: frozenset[str]) -> None:
        self.conn = conn
        self._id_tables = id_tables

    async def execute(self, sql: str, params: Params = ()) -> Outcome:
        statement = to_postgres(sql)
        args = statement.arguments(params)
        insert = _INSERT_INTO.match(statement.sql)
        if insert and insert["table"] in self._id_tables and not _RETURNING.search(sql):
            # SQLite's lastrowid: PostgreSQL says it only when asked.
            rows = await self.conn.fetch(statement.sql + " RETURNING id", *args)
            return Outcome(len(rows), int(rows[-1]["id"]) if rows else None)
        return Outcome(changed_rows(await self.conn.execute(statement.sql, *args)))

    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[asyncpg.Record]:
        statement = to_postgres(sql)
        return list(await self.conn.fetch(statement.sql, *statement.arguments(params)))

    async def executemany(self, sql: str, params: Iterable[Params]) -> Outcome:
        statement = to_postgres(sql)
        await self.conn.executemany(statement.sql, [statement.arguments(p) for p in params])
        return Outcome(-1)  # as sqlite3 says for a statement it cannot count


def session_as_aiosqlite(session: PgSession) -> aiosqlite.Connection:
    """The session, typed as the aiosqlite connection whose calls it mimics, for the
    helpers written once for both backends."""
    return cast("aiosqlite.Connection", session)


class PgConnection(SqliteConnection):
    """Owns the pool; replaces the SQLite statement helpers with pooled PostgreSQL ones."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        url: str,
        id_tables: frozenset[str],
        *,
        replica: str,
        lease: timedelta,
    ) -> None:
        super().__init__(cast("aiosqlite.Connection", pool), url)
        self._pool: asyncpg.Pool | None = pool
        self._id_tables = id_tables
        self.replica = replica  # who claims outbox actions (see PostgresRounds)
        self._lease = lease

    @property
    def outbox_lease(self) -> timedelta:
        """How long an outbox claim holds an action off the other replicas."""
        return self._lease

    @property
    def id_tables(self) -> frozenset[str]:
        """The tables with an identity ``id`` column."""
        return self._id_tables

    def _pooled(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreClosedError("the PostgreSQL store is closed")
        return self._pool

    @asynccontextmanager
    async def _session(self) -> AsyncIterator[PgSession]:
        """A transaction on a connection of the pool (READ COMMITTED)."""
        async with self._pooled().acquire() as conn, conn.transaction():
            yield PgSession(conn, self._id_tables)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._session() as session:
            yield session_as_aiosqlite(session)

    async def _transact(self, work: Work[T]) -> T:
        raise NotImplementedError("SQLite thread work: the PostgreSQL store overrides its caller")

    async def _fetch(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        statement = to_postgres(sql)
        rows = await self._pooled().fetch(statement.sql, *statement.arguments(params))
        return cast("list[sqlite3.Row]", rows)

    async def _fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self._fetch(sql, params)
        return rows[0] if rows else None

    async def _change(self, sql: str, params: Params = ()) -> int:
        statement = to_postgres(sql)
        status = await self._pooled().execute(statement.sql, *statement.arguments(params))
        return changed_rows(status)
