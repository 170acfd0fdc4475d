"""Which store a database URL names, and opening it.

``sqlite:///quizbot.db`` (a relative path; ``sqlite:////var/lib/quizbot.db`` an absolute
one) or no URL at all (the SQLite file of ``QUIZBOT_DB_PATH``) opens SQLite, the default;
``postgresql://user@host:5432/db`` opens PostgreSQL, importing asyncpg only then.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

from bot.settings import Settings
from storage.errors import StorageError
from storage.passwords import hide_password
from storage.postgres_store import DEFAULT_LEASE, PostgresStore
from storage.sqlite_store import SqliteStore

AnyStore = SqliteStore | PostgresStore
_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class DatabaseUrlError(StorageError, ValueError):
    """A database URL this quizbot cannot open."""


@dataclass(frozen=True, slots=True)
class Database:
    """A configured database: an SQLite file or a PostgreSQL URL."""

    kind: Literal["sqlite", "postgres"]
    location: str  # the file path, or the PostgreSQL URL

    def __str__(self) -> str:
        return self.location if self.kind == "sqlite" else hide_password(self.location)


def parse_database(url: str | None, default_path: Path | None = None) -> Database:
    """The database ``url`` names; None: the SQLite file ``default_path``."""
    if url is None or not url.strip():
        return Database("sqlite", str(default_path or Path("quizbot.db")))
    url = url.strip()
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        if not path:
            raise DatabaseUrlError("sqlite:/// needs a file, e.g. sqlite:///quizbot.db")
        return Database("sqlite", path)
    if url.startswith(_POSTGRES_SCHEMES):
        return Database("postgres", url)
    scheme = url.split("://", 1)[0] if "://" in url else url[:20]
    raise DatabaseUrlError(
        f"unsupported database URL scheme {scheme!r}: use sqlite:///path/to/quizbot.db"
        " or postgresql://user@host:5432/database"
    )


def configured_database(settings: Settings) -> Database:
    """The database of ``QUIZBOT_DATABASE_URL``, else the SQLite file of ``QUIZBOT_DB_PATH``."""
    url = settings.database_url
    return parse_database(None if url is None else url.get_secret_value(), settings.db_path)


@asynccontextmanager
async def open_database(
    database: Database, *, lease: timedelta = DEFAULT_LEASE, **sqlite_options: Any
) -> AsyncIterator[AnyStore]:
    """Open (and migrate) the store of ``database``: PostgreSQL with outbox leases of
    ``lease``, SQLite with ``sqlite_options``."""
    if database.kind == "sqlite":
        async with SqliteStore.open(database.location, **sqlite_options) as sqlite:
            yield sqlite
        return
    try:
        import asyncpg  # noqa: F401  # only to say clearly what is missing
    except ImportError as missing:
        raise DatabaseUrlError(
            "a postgresql:// URL needs asyncpg: pip install 'quizbot[postgres]'"
        ) from missing
    async with PostgresStore.open(database.location, lease=lease) as postgres:
        yield postgres
