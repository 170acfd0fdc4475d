"""The connection pool the PostgreSQL aggregates share, as a ``SqlDatabase``.

The shared statements are SQLite-flavoured; each is translated once
(``storage.postgres.dialect``). Unlike SQLite's one connection there is no store-wide
lock: PostgreSQL isolates concurrent transactions itself.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from bot.kernel.stores import ChangeKind
from storage.errors import StoreClosedError
from storage.postgres.dialect import to_postgres
from storage.sql.session import Params, Row, Session

if TYPE_CHECKING:
    import asyncpg

NOTICES = {
    ChangeKind.CHANNEL: "quizbot_channels",
    ChangeKind.QUESTION: "quizbot_questions",
    ChangeKind.REMINDER: "quizbot_reminders",
    ChangeKind.PAIR_SCHEDULE: "quizbot_pair_schedules",
}


def changed_rows(status: str) -> int:
    """The row count of a command status such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgSession:
    """A ``Session`` over one asyncpg connection inside a transaction; ``conn`` is there
    for the PostgreSQL-only statements of this backend."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        statement = to_postgres(sql)
        return changed_rows(await self.conn.execute(statement.sql, *statement.arguments(params)))

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        statement = to_postgres(sql)
        return list(await self.conn.fetch(statement.sql, *statement.arguments(params)))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    async def execute_many(self, sql: str, params: Iterable[Params]) -> None:
        statement = to_postgres(sql)
        await self.conn.executemany(statement.sql, [statement.arguments(p) for p in params])

    async def insert_returning_id(self, sql: str, params: Params = ()) -> int | None:
        statement = to_postgres(sql)
        # SQLite's lastrowid: PostgreSQL says it only when asked.
        rows = await self.conn.fetch(statement.sql + " RETURNING id", *statement.arguments(params))
        return int(rows[-1]["id"]) if rows else None


class PostgresDatabase:
    """Owns the pool (a ``SqlDatabase``); ``url`` is the URL without its password."""

    def __init__(self, pool: asyncpg.Pool, url: str, id_tables: frozenset[str]) -> None:
        self.pool: asyncpg.Pool | None = pool
        self.url = url
        self.id_tables = id_tables  # the tables with an identity ``id`` column

    def pooled(self) -> asyncpg.Pool:
        if self.pool is None:
            raise StoreClosedError("the PostgreSQL store is closed")
        return self.pool

    @asynccontextmanager
    async def session(self) -> AsyncIterator[PgSession]:
        """A transaction on a connection of the pool (READ COMMITTED)."""
        async with self.pooled().acquire() as conn, conn.transaction():
            yield PgSession(conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        async with self.session() as session:
            yield session

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        statement = to_postgres(sql)
        return list(await self.pooled().fetch(statement.sql, *statement.arguments(params)))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    async def change(self, sql: str, params: Params = ()) -> int:
        statement = to_postgres(sql)
        status = await self.pooled().execute(statement.sql, *statement.arguments(params))
        return changed_rows(status)

    async def announce(self, session: Session, kind: ChangeKind, number: int) -> None:
        """``NOTIFY`` every replica, once ``session``'s transaction commits, that the row
        changed; the schema in the payload keeps other installations' listeners asleep."""
        await session.execute(
            "SELECT pg_notify(?, current_schema() || ':' || ?)", (NOTICES[kind], str(number))
        )
