"""Which store a database URL names, and opening it.

``sqlite:///quizbot.db`` (a relative path; ``sqlite:////var/lib/quizbot.db`` an absolute
one) or no URL at all (the SQLite file of ``QUIZBOT_DB_PATH``) opens SQLite, the default;
``postgresql://user@host:5432/db`` opens PostgreSQL, importing asyncpg only then.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import SecretStr

from storage.errors import StorageError, StoreUnavailableError
from storage.migrations import bundled_migrations
from storage.passwords import hide_password
from storage.postgres.migrations import bundled_postgres_migrations, postgres_schema_version
from storage.postgres.store import DEFAULT_LEASE, PostgresStore
from storage.sqlite.store import SqliteStore

AnyStore = SqliteStore | PostgresStore
_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class DatabaseUrlError(StorageError, ValueError):
    """A database URL this quizbot cannot open."""


class DatabaseSettings(Protocol):
    """The settings that name the database (the core's ``Settings`` has them)."""

    @property
    def database_url(self) -> SecretStr | None: ...

    @property
    def db_path(self) -> Path: ...


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


def parse_location(text: str) -> Database:
    """A database URL, or the plain path of an SQLite file (``quizbot.db``, ``/data/q.db``)."""
    if text.strip() and "://" not in text:
        return Database("sqlite", text)
    return parse_database(text)


def configured_database(settings: DatabaseSettings) -> Database:
    """The database of ``QUIZBOT_DATABASE_URL``, else the SQLite file of ``QUIZBOT_DB_PATH``."""
    url = settings.database_url
    return parse_database(None if url is None else url.get_secret_value(), settings.db_path)


@asynccontextmanager
async def open_existing_database(database: Database) -> AsyncIterator[AnyStore]:
    """The store of ``database`` as it is: never created, never migrated (a newer CLI must
    not migrate a running bot's database under it); one older than this quizbot is refused."""
    version, latest = await _schema_versions(database)
    if version == 0:
        raise StorageError(f"{database} has no quizbot tables yet: run `quizbot db migrate` first")
    if version < latest:
        raise StorageError(
            f"{database} is at schema version {version}, older than this quizbot's {latest}: "
            "run `quizbot db migrate` first"
        )
    if database.kind == "sqlite":
        async with SqliteStore.open(database.location, run_migrations=False) as sqlite:
            yield sqlite
        return
    async with PostgresStore.open(database.location, run_migrations=False) as postgres:
        yield postgres


async def _schema_versions(database: Database) -> tuple[int, int]:
    """The schema version of ``database`` and the newest this quizbot knows."""
    if database.kind == "sqlite":
        return _sqlite_schema_version(Path(database.location)), bundled_migrations()[-1].version
    try:
        import asyncpg
    except ImportError as missing:
        raise DatabaseUrlError(
            "a postgresql:// URL needs asyncpg: pip install 'quizbot[postgres]'"
        ) from missing
    try:
        conn = await asyncpg.connect(database.location)
    except (OSError, TimeoutError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        raise StoreUnavailableError(f"cannot connect to PostgreSQL at {database}: {e}") from None
    try:
        version = await postgres_schema_version(conn)
    finally:
        await conn.close()
    return version, bundled_postgres_migrations()[-1].version


def _sqlite_schema_version(path: Path) -> int:
    """The schema version of the SQLite file, opened read-only (it is never created)."""
    if not path.is_file():
        raise StorageError(f"no database at {path}")
    with contextlib.closing(
        sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    ) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


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
