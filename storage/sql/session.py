"""What the shared SQL needs of a backend: a transaction's session and the database.

The statements are SQLite-flavoured and portable (``?`` or ``:name`` placeholders,
``INSERT OR IGNORE``); the PostgreSQL backend translates them. A row is read by
position or by column name, as both drivers' rows are.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bot.kernel.stores import ChangeKind

Params = Sequence[Any] | Mapping[str, Any]


class Row(Protocol):
    """One result row: by position or by column name (``sqlite3.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...

    def keys(self) -> Any: ...


class Session(Protocol):
    """The statements of one open transaction."""

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the rows it changed."""
        ...

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None: ...

    async def execute_many(self, sql: str, params: Iterable[Params]) -> None:
        """Run one statement once per parameter set."""
        ...

    async def insert_returning_id(self, sql: str, params: Params = ()) -> int | None:
        """Run an ``INSERT`` of one row; the new row's ``id``, None when none was inserted."""
        ...


class SqlDatabase(Protocol):
    """A backend's database as the aggregates use it: transactions, and single statements
    outside one (each atomic on its own)."""

    def transaction(self) -> AbstractAsyncContextManager[Session]:
        """A write transaction: committed when the block ends, rolled back on an error."""
        ...

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None: ...

    async def change(self, sql: str, params: Params = ()) -> int:
        """Run one write statement; the rows it changed."""
        ...

    async def announce(self, session: Session, kind: ChangeKind, number: int) -> None:
        """Tell the other processes sharing the database, once ``session`` commits, that a
        row changed (PostgreSQL: a NOTIFY; SQLite has one process and tells nobody)."""
        ...
