"""The one SQLite connection the aggregate stores share, and their statement helpers.

One long-lived connection (WAL, ``synchronous=NORMAL`` unless FULL is asked for)
does every read and write. Several asyncio tasks share it, so each statement or
transaction holds ``_lock``: a transaction never interleaves with another task's
statements, and no reader sees rows of a batch that may still roll back.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.kernel.bounded_cache import BoundedCache
from bot.kernel.stores import ChangeKind
from storage.errors import StoreClosedError
from storage.one_hop import T, Work, transact

# Tells the other processes sharing the store that a row changed, in the transaction that
# changes it (PostgreSQL: a NOTIFY, see ``postgres_channels``).
Announce = Callable[[aiosqlite.Connection, ChangeKind, int], Awaitable[None]]


async def announce_to_nobody(conn: aiosqlite.Connection, kind: ChangeKind, number: int) -> None:
    """SQLite has one process: nobody to tell."""
    return None


class SqliteConnection:
    """Owns the connection, its lock, and what several aggregates share: which channel
    each round belongs to (rounds record it, answers check against it)."""

    def __init__(self, conn: aiosqlite.Connection, path: Path | str) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._round_channels: BoundedCache[int, int] = BoundedCache()

    # statement helpers

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StoreClosedError(f"the store of {self.path} is closed")
        return self._conn

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction that no other task's statements can interleave with."""
        async with self._lock:
            conn = self._connection()
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                await conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise

    async def _transact(self, work: Work[T]) -> T:
        """Like :meth:`_transaction`, with all of ``work``'s statements in one round trip."""
        async with self._lock:
            return await transact(self._connection(), work)

    async def _fetch(
        self, sql: str, params: Sequence[Any] | dict[str, Any] = ()
    ) -> list[sqlite3.Row]:
        async with self._lock:
            return list(await self._connection().execute_fetchall(sql, params))

    async def _fetch_one(
        self, sql: str, params: Sequence[Any] | dict[str, Any] = ()
    ) -> sqlite3.Row | None:
        rows = await self._fetch(sql, params)
        return rows[0] if rows else None

    async def _change(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> int:
        """Run one write statement (atomic on its own); returns the rows it changed."""
        async with self._lock:
            cursor = await self._connection().execute(sql, params)
            return cursor.rowcount  # a write statement is finished: no cursor to close
