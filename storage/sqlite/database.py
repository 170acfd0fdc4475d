"""The one SQLite connection the aggregates share, as a ``SqlDatabase``.

One long-lived connection (WAL, ``synchronous=NORMAL`` unless FULL is asked for)
does every read and write. Several asyncio tasks share it, so each statement or
transaction holds ``lock``: a transaction never interleaves with another task's
statements, and no reader sees rows of a batch that may still roll back.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.kernel.stores import ChangeKind
from storage.errors import StoreClosedError
from storage.sql.session import Params, Row, Session
from storage.sqlite.one_hop import T, Work, transact


class SqliteSession:
    """A ``Session`` over the connection while its transaction is open."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount  # a write statement is finished: no cursor to close

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    async def execute_many(self, sql: str, params: Iterable[Params]) -> None:
        await self._conn.executemany(sql, params)

    async def insert_returning_id(self, sql: str, params: Params = ()) -> int | None:
        cursor = await self._conn.execute(sql, params)
        return cursor.lastrowid if cursor.rowcount == 1 else None


class SqliteDatabase:
    """Owns the connection and its lock (a ``SqlDatabase``)."""

    def __init__(self, conn: aiosqlite.Connection, path: Path | str) -> None:
        self.conn: aiosqlite.Connection | None = conn
        self.path = path
        self.lock = asyncio.Lock()

    def connection(self) -> aiosqlite.Connection:
        if self.conn is None:
            raise StoreClosedError(f"the store of {self.path} is closed")
        return self.conn

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        """A write transaction that no other task's statements can interleave with."""
        async with self.lock:
            conn = self.connection()
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield SqliteSession(conn)
                await conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise

    async def transact(self, work: Work[T]) -> T:
        """Like :meth:`transaction`, with all of ``work``'s statements in one round trip."""
        async with self.lock:
            return await transact(self.connection(), work)

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        async with self.lock:
            return list(await self.connection().execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    async def change(self, sql: str, params: Params = ()) -> int:
        async with self.lock:
            cursor = await self.connection().execute(sql, params)
            return cursor.rowcount

    async def announce(self, session: Session, kind: ChangeKind, number: int) -> None:
        """SQLite has one process: nobody to tell."""
        return None
