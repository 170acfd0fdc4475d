"""Numbered PostgreSQL migrations (``migrations/postgres/NNN_name.sql``), tracked in a
``schema_version`` table.

The files mirror the SQLite ones number for number. Each migration runs in its own
transaction with the version bump, under an advisory lock, so replicas starting at the
same time apply it once and a failed migration leaves the previous version.
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

from storage.errors import MigrationError
from storage.migrations import Migration, MigrationReport, load_migrations, refuse_future_schema

if TYPE_CHECKING:
    import asyncpg

_LOCK = 0x71756978  # the advisory lock key of quizbot's migrations ("quix")


def bundled_postgres_migrations() -> list[Migration]:
    return load_migrations(resources.files("storage") / "migrations" / "postgres")


async def postgres_schema_version(conn: asyncpg.Connection) -> int:
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    version = await conn.fetchval("SELECT MAX(version) FROM schema_version")
    return int(version or 0)


async def migrate_postgres(
    conn: asyncpg.Connection, migrations: list[Migration] | None = None
) -> MigrationReport:
    """Apply the migrations newer than the database; refuse a database newer than the code."""
    import asyncpg

    if migrations is None:
        migrations = bundled_postgres_migrations()
    latest = migrations[-1].version if migrations else 0
    start = await postgres_schema_version(conn)
    refuse_future_schema(start, latest)
    current = start
    for migration in migrations:
        if migration.version <= current:
            continue
        try:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK)
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
                    " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
                # Another replica may have migrated while we waited for the lock.
                current = await postgres_schema_version(conn)
                refuse_future_schema(current, latest)
                if migration.version > current:
                    for statement in migration.statements:
                        await conn.execute(statement)
                    await conn.execute(
                        "INSERT INTO schema_version (version) VALUES ($1)", migration.version
                    )
                    current = migration.version
        except asyncpg.PostgresError as error:
            raise MigrationError(
                f"migration postgres/{migration.version:03d}_{migration.name}.sql failed: {error}"
            ) from error
    return MigrationReport(start, current)
