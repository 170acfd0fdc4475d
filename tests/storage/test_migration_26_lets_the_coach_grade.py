"""Migration 026 lets a grade come from the coach: the grades a database holds are kept as
they were (ids, sources, which one is current), a grade labelled as the coach's can then be
stored, an unknown source is still refused, and a round still has one current grade per
member. On both backends (SQLite rebuilds the table; PostgreSQL changes the constraint)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from storage.migrations import bundled_migrations
from storage.sqlite.migrations import migrate
from tests.storage.backends import postgres_schema

BEFORE = 25  # the schema version before a grade could be the coach's
AT = "2026-12-07T10:00:00.000000Z"
NEXT_DAY = "2026-12-08T10:00:00.000000Z"
INSERTS = (
    "INSERT INTO channels (id, platform, workspace, channel, timezone, reveal_emoji,"
    " reveal_min_reactors, followup_policy, grace_hours)"
    " VALUES (1, 'slack', 'T', 'C1', 'UTC', 'x', 1, 'after_first_answer', 6)",
    "INSERT INTO members (id, platform, workspace, member) VALUES (1, 'slack', 'T', 'U1')",
    "INSERT INTO questions (id, pack, question, topic, content_hash)"
    " VALUES (1, 'p', 'q1', 'gpu', 'h1')",
    "INSERT INTO rounds (id, channel_id, question_id, number, scheduled_for, scheduled, state,"
    f" created_at) VALUES (1, 1, 1, 1, '{AT}', 1, 'closed', '{AT}')",
    "INSERT INTO rounds (id, channel_id, question_id, number, scheduled_for, scheduled, state,"
    f" created_at) VALUES (2, 1, 1, 2, '{NEXT_DAY}', 1, 'closed', '{NEXT_DAY}')",
    # round 1: the reviewers' grade, replaced by the member's own; round 2: the reviewers'
    "INSERT INTO grades (id, member_id, question_id, round_id, channel_id, rating, graded_at,"
    f" replaced_at, covered, source) VALUES (1, 1, 1, 1, 1, 2, '{AT}', '{AT}', NULL, 'reviews')",
    "INSERT INTO grades (id, member_id, question_id, round_id, channel_id, rating, graded_at,"
    f" covered, source) VALUES (2, 1, 1, 1, 1, 3, '{AT}', '[1, 2]', 'self')",
    "INSERT INTO grades (id, member_id, question_id, round_id, channel_id, rating, graded_at,"
    f" source) VALUES (3, 1, 1, 2, 1, 4, '{AT}', 'reviews')",
)
KEPT = [
    (1, 2, True, None, "reviews"),
    (2, 3, False, "[1, 2]", "self"),
    (3, 4, False, None, "reviews"),
]
SELECT = "SELECT id, rating, replaced_at IS NOT NULL, covered, source FROM grades ORDER BY id"
# ids given: PostgreSQL's identity did not count the ones given above
PRACTICE_GRADE = (
    "INSERT INTO grades (id, member_id, question_id, rating, graded_at, source)"
    f" VALUES ({{id}}, 1, 1, 2, '{AT}', '{{source}}')"
)
SECOND_CURRENT = (
    "INSERT INTO grades (id, member_id, question_id, round_id, channel_id, rating, graded_at,"
    f" source) VALUES (11, 1, 1, 2, 1, 1, '{AT}', 'coach')"
)


def _as_kept(rows: Iterable[Sequence[Any]]) -> list[tuple[Any, ...]]:
    return [(r[0], r[1], bool(r[2]), r[3], r[4]) for r in rows]


async def test_sqlite_keeps_the_grades_and_takes_the_coachs(tmp_path: Path) -> None:
    migrations = bundled_migrations()
    async with aiosqlite.connect(tmp_path / "quiz.db", isolation_level=None) as conn:
        await migrate(conn, migrations[:BEFORE])
        for statement in INSERTS:
            await conn.execute(statement)
        await migrate(conn, migrations)

        assert _as_kept(await conn.execute_fetchall(SELECT)) == KEPT
        await conn.execute(PRACTICE_GRADE.format(id=10, source="coach"))
        with pytest.raises(sqlite3.IntegrityError):
            await conn.execute(PRACTICE_GRADE.format(id=12, source="oracle"))
        with pytest.raises(sqlite3.IntegrityError):
            await conn.execute(SECOND_CURRENT)  # round 2 has a current grade of the member's
        indexes = await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'grades'"
        )
    assert {r[0] for r in indexes} >= {
        "grades_once_per_round",
        "grades_by_member",
        "grades_by_channel",
        "grades_by_member_time",
    }


async def test_postgres_keeps_the_grades_and_takes_the_coachs() -> None:
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

            assert _as_kept(await conn.fetch(SELECT)) == KEPT
            await conn.execute(PRACTICE_GRADE.format(id=10, source="coach"))
            with pytest.raises(asyncpg.CheckViolationError):
                await conn.execute(PRACTICE_GRADE.format(id=12, source="oracle"))
            with pytest.raises(asyncpg.UniqueViolationError):
                await conn.execute(SECOND_CURRENT)
        finally:
            await conn.close()
