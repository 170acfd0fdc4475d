"""Migration 011 records skips: of the rounds before it, exactly those still inferable as
skipped (closed, unrevealed, their channel's latest round) are marked, on both backends."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from storage.migrations import bundled_migrations
from storage.sqlite.migrations import migrate
from tests.storage.backends import BACKENDS, postgres_schema

BEFORE = 10  # the schema version before skips were recorded
OPENED, CLOSED = "2026-01-05T09:00:00.000000Z", "2026-01-05T09:30:00.000000Z"
REVEALED = "2026-01-05T09:10:00.000000Z"
CHANNELS = (1, 2, 3)
# (id, channel, number, state, revealed_at): the rounds a database had before 011.
ROUNDS = (
    (1, 1, 1, "closed", None),  # skipped or closed by round 2: cannot be told, stays unmarked
    (2, 1, 2, "closed", REVEALED),
    (3, 1, 3, "closed", None),  # the latest, closed before its reveal: skipped
    (4, 2, 1, "closed", None),  # closed by round 5's posting
    (5, 2, 2, "open", None),
    (6, 3, 1, "closed", REVEALED),  # the latest, but revealed: its outline is out
)
SKIPPED = {3: CLOSED}


def _inserts() -> list[str]:
    statements = [
        "INSERT INTO questions (id, pack, question, topic, content_hash)"
        " VALUES (1, 'p', 'q', 't', 'h')"
    ]
    statements += [
        "INSERT INTO channels (id, platform, workspace, channel, timezone, reveal_emoji,"
        " reveal_min_reactors, followup_policy, grace_hours)"
        f" VALUES ({c}, 'slack', 'T', 'C{c}', 'UTC', 'x', 1, 'after_first_answer', 6)"
        for c in CHANNELS
    ]
    for round_id, channel, number, state, revealed in ROUNDS:
        closed = "NULL" if state == "open" else f"'{CLOSED}'"
        revealed_at = "NULL" if revealed is None else f"'{revealed}'"
        statements.append(
            "INSERT INTO rounds (id, channel_id, question_id, number, scheduled_for, scheduled,"
            " state, created_at, revealed_at, closed_at)"
            f" VALUES ({round_id}, {channel}, 1, {number}, '{OPENED}{number}', 1, '{state}',"
            f" '{OPENED}', {revealed_at}, {closed})"
        )
    return statements


async def _migrated_on_sqlite(tmp_path: Path) -> dict[int, str | None]:
    migrations = bundled_migrations()
    async with aiosqlite.connect(tmp_path / "quiz.db", isolation_level=None) as conn:
        await migrate(conn, migrations[:BEFORE])
        for statement in _inserts():
            await conn.execute(statement)
        await migrate(conn, migrations)
        rows = await conn.execute_fetchall("SELECT id, skipped_at FROM rounds")
    return {row[0]: row[1] for row in rows}


async def _migrated_on_postgres() -> dict[int, str | None]:
    import asyncpg

    from storage.postgres.migrations import bundled_postgres_migrations, migrate_postgres

    migrations = bundled_postgres_migrations()
    async with postgres_schema() as url:
        conn = await asyncpg.connect(url)
        try:
            await migrate_postgres(conn, migrations[:BEFORE])
            for statement in _inserts():
                await conn.execute(statement)
            await migrate_postgres(conn, migrations)
            rows = await conn.fetch("SELECT id, skipped_at FROM rounds")
        finally:
            await conn.close()
    return {row[0]: row[1] for row in rows}


@pytest.mark.parametrize("backend", BACKENDS)
async def test_only_the_rounds_inferable_as_skipped_are_marked(
    backend: str, tmp_path: Path
) -> None:
    if backend == "sqlite":
        skipped_at = await _migrated_on_sqlite(tmp_path)
    else:
        skipped_at = await _migrated_on_postgres()

    assert {round_id: at for round_id, at in skipped_at.items() if at is not None} == SKIPPED
    assert set(skipped_at) == {row[0] for row in ROUNDS}
