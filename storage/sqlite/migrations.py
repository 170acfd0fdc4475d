"""SQLite's migrations, tracked with ``PRAGMA user_version``.

Each migration runs in its own transaction together with the version bump, so
a failed migration leaves the database at the previous version.
"""

from __future__ import annotations

import sqlite3

import aiosqlite

from storage.errors import MigrationError
from storage.migrations import Migration, MigrationReport, bundled_migrations, refuse_future_schema


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
