"""Numbered SQL migrations (``migrations/NNN_name.sql``), tracked with ``PRAGMA user_version``.

Each migration runs in its own transaction together with the version bump, so
a failed migration leaves the database at the previous version.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

import aiosqlite

from storage.errors import MigrationError, SchemaTooNewError

_FILE_NAME = re.compile(r"^(?P<version>\d{3})_(?P<name>[a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered SQL file of the schema."""

    version: int
    name: str
    statements: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """Which schema version the database had and which migrations were applied."""

    from_version: int
    to_version: int

    @property
    def applied(self) -> int:
        return self.to_version - self.from_version


def split_statements(script: str, *, source: str = "<sql>") -> tuple[str, ...]:
    """The statements of ``script``; semicolons inside strings, comments and triggers stay put."""
    statements: list[str] = []
    *terminated, tail = script.split(";")
    pending = ""
    for piece in terminated:
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if _has_code(pending):
                statements.append(pending.strip())
            pending = ""
    if _has_code(pending + tail):
        raise MigrationError(f"{source}: the last statement does not end with ';'")
    return tuple(statements)


def _has_code(sql: str) -> bool:
    lines = (line.strip() for line in sql.splitlines())
    return any(line and not line.startswith("--") and line != ";" for line in lines)


def load_migrations(directory: Traversable) -> list[Migration]:
    """Every ``NNN_name.sql`` of ``directory``, checked to be numbered 1, 2, 3 ... without gaps."""
    found: dict[int, Migration] = {}
    for entry in directory.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise MigrationError(
                f"migration file {entry.name!r} is not named NNN_name.sql"
                " (e.g. 002_add_streaks.sql)"
            )
        version = int(match["version"])
        if version in found:
            raise MigrationError(f"two migration files have number {version:03d}")
        statements = split_statements(entry.read_text(encoding="utf-8"), source=entry.name)
        found[version] = Migration(version, match["name"], statements)
    versions = sorted(found)
    if versions != list(range(1, len(versions) + 1)):
        raise MigrationError(f"migrations must be numbered 001, 002, ... without gaps: {versions}")
    return [found[v] for v in versions]


def bundled_migrations() -> list[Migration]:
    return load_migrations(resources.files("storage") / "migrations")


async def schema_version(conn: aiosqlite.Connection) -> int:
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def migrate(
    conn: aiosqlite.Connection, migrations: list[Migration] | None = None
) -> MigrationReport:
    """Apply the migrations newer than the database; refuse a database newer than the code.

    ``conn`` must be in autocommit mode (``isolation_level=None``).
    """
    if migrations is None:
        migrations = bundled_migrations()
    latest = migrations[-1].version if migrations else 0
    start = await schema_version(conn)
    refuse_future_schema(start, latest)
    current = start
    for migration in migrations:
        if migration.version <= current:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the write lock.
            current = await schema_version(conn)
            refuse_future_schema(current, latest)
            if migration.version > current:
                for statement in migration.statements:
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {migration.version:d}")
                current = migration.version
            await conn.execute("COMMIT")
        except BaseException as error:
            await conn.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise MigrationError(
                    f"migration {migration.version:03d}_{migration.name}.sql failed: {error}"
                ) from error
            raise
    return MigrationReport(start, current)


def refuse_future_schema(version: int, latest: int) -> None:
    if version > latest:
        raise SchemaTooNewError(
            f"the database has schema version {version}, but this quizbot only knows "
            f"versions up to {latest}; upgrade quizbot (or restore an older backup)"
        )
