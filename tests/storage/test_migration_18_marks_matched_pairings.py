"""Migration 018 decides each week's matching once: of the pairings before it, exactly
those whose groups were stored are marked matched (at the time they were recorded), so a
retry of one finds it matched; a pairing with no groups yet is left to be matched. On both
backends."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from storage.migrations import bundled_migrations
from storage.sqlite.migrations import migrate
from tests.storage.backends import BACKENDS, postgres_schema

BEFORE = 17  # the schema version before a matching was marked
PAIRED = "2026-11-30T10:00:00.000000Z"
INSERTS = (
    "INSERT INTO channels (id, platform, workspace, channel, timezone, reveal_emoji,"
    " reveal_min_reactors, followup_policy, grace_hours)"
    " VALUES (1, 'slack', 'T', 'C1', 'UTC', 'x', 1, 'after_first_answer', 6)",
    "INSERT INTO members (id, platform, workspace, member) VALUES (1, 'slack', 'T', 'U1')",
    "INSERT INTO members (id, platform, workspace, member) VALUES (2, 'slack', 'T', 'U2')",
    "INSERT INTO pairings (id, channel_id, week, key, paired_at)"
    f" VALUES (1, 1, '2026-W49', 'pair:1:2026-W49', '{PAIRED}')",
    "INSERT INTO pairings (id, channel_id, week, key, paired_at)"
    f" VALUES (2, 1, '2026-W50', 'pair:1:2026-W50', '{PAIRED}')",
    "INSERT INTO pair_groups (id, pairing_id, channel_id, week, members)"
    " VALUES (1, 1, 1, '2026-W49', '[1, 2]')",
)
MATCHED = {1: PAIRED, 2: None}  # pairing 2 was recorded, its groups not stored yet


async def _migrated_on_sqlite(tmp_path: Path) -> dict[int, str | None]:
    migrations = bundled_migrations()
    async with aiosqlite.connect(tmp_path / "quiz.db", isolation_level=None) as conn:
        await migrate(conn, migrations[:BEFORE])
        for statement in INSERTS:
            await conn.execute(statement)
        await migrate(conn, migrations)
        rows = await conn.execute_fetchall("SELECT id, matched_at FROM pairings")
    return {row[0]: row[1] for row in rows}


async def _migrated_on_postgres() -> dict[int, str | None]:
    import asyncpg

    from storage.postgres.migrations import bundled_postgres_migrations, migrate_postgres

    migrations = bundled_postgres_migrations()
    async with postgres_schema() as url:
        conn = await asyncpg.connect(url)
        try:
            await migrate_postgres(conn, migrations[:BEFORE])
            for statement in INSERTS:
                await conn.execute(statement)
            await migrate_postgres(conn, migrations)
            rows = await conn.fetch("SELECT id, matched_at FROM pairings")
        finally:
            await conn.close()
    return {row[0]: row[1] for row in rows}


@pytest.mark.parametrize("backend", BACKENDS)
async def test_only_the_pairings_with_groups_are_marked_matched(
    backend: str, tmp_path: Path
) -> None:
    if backend == "sqlite":
        matched_at = await _migrated_on_sqlite(tmp_path)
    else:
        matched_at = await _migrated_on_postgres()

    assert matched_at == MATCHED
