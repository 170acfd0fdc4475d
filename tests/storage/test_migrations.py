"""Numbered SQL migrations tracked with PRAGMA user_version."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from storage.copy import TABLES as COPIED_TABLES
from storage.errors import MigrationError, SchemaTooNewError
from storage.migrations import (
    Migration,
    bundled_migrations,
    load_migrations,
    split_statements,
)
from storage.sqlite.migrations import migrate, schema_version
from storage.sqlite.store import SqliteStore
from tests.store_reads import round_actions

T0, T1 = "2026-01-05T09:00:00.000000Z", "2026-01-05T09:01:00.000000Z"
TABLES = {
    "channels",
    "questions",
    "rounds",
    "members",
    "answers",
    "votes",
    "reveal_reactors",
    "outbox",
    "processed_events",
    "meta",
}


def tables_of(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    finally:
        conn.close()
    return {row[0] for row in rows}


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


async def test_migrating_an_empty_database_creates_every_table(tmp_path: Path) -> None:
    path = tmp_path / "quiz.db"
    async with SqliteStore.open(path) as store:
        assert store.migration is not None
        assert (store.migration.from_version, store.migration.applied) == (
            0,
            len(bundled_migrations()),
        )
    assert user_version(path) == len(bundled_migrations())
    assert tables_of(path) >= TABLES


async def test_running_migrations_again_is_a_no_op(tmp_path: Path) -> None:
    path = tmp_path / "quiz.db"
    async with SqliteStore.open(path):
        pass
    async with SqliteStore.open(path) as store:
        assert store.migration is not None and store.migration.applied == 0
    assert user_version(path) == len(bundled_migrations())


async def test_a_database_from_the_future_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "quiz.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(SchemaTooNewError, match=r"schema version 99.*upgrade quizbot"):
        await SqliteStore.connect(path)
    assert user_version(path) == 99


async def test_a_failing_migration_rolls_back_and_names_its_file(tmp_path: Path) -> None:
    good = Migration(1, "first", ("CREATE TABLE a (x INTEGER)",))
    bad = Migration(2, "broken", ("CREATE TABLE b (x INTEGER)", "CREATE TABLE a (x INTEGER)"))
    async with aiosqlite.connect(tmp_path / "m.db", isolation_level=None) as conn:
        with pytest.raises(MigrationError, match=re.escape("002_broken.sql failed")):
            await migrate(conn, [good, bad])
        assert await schema_version(conn) == 1
        rows = await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE name = 'b'")
        assert list(rows) == []  # the half-applied migration left nothing behind


def test_split_statements_keeps_semicolons_in_strings_comments_and_triggers() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT 'a;b');
    CREATE TRIGGER t_ins AFTER INSERT ON t BEGIN
        UPDATE t SET x = 'c;d';
    END;
    """
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].endswith("END;")
    with pytest.raises(MigrationError, match="does not end with ';'"):
        split_statements("CREATE TABLE t (x INTEGER)")


def test_migration_files_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    (tmp_path / "001_first.sql").write_text("CREATE TABLE a (x INTEGER);")
    (tmp_path / "003_third.sql").write_text("CREATE TABLE c (x INTEGER);")
    with pytest.raises(MigrationError, match="without gaps"):
        load_migrations(tmp_path)
    (tmp_path / "003_third.sql").unlink()
    (tmp_path / "2_bad-name.sql").write_text("")
    with pytest.raises(MigrationError, match=re.escape("not named NNN_name.sql")):
        load_migrations(tmp_path)


def test_bundled_migrations_load() -> None:
    migrations = bundled_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert all(m.statements for m in migrations)


def test_the_postgresql_migrations_mirror_the_sqlite_ones() -> None:
    from storage.postgres.migrations import bundled_postgres_migrations

    sqlite = [(m.version, m.name) for m in bundled_migrations()]
    assert [(m.version, m.name) for m in bundled_postgres_migrations()] == sqlite


async def test_migration_8_keeps_the_outbox_and_lets_an_action_have_no_round(
    tmp_path: Path,
) -> None:
    path = tmp_path / "quiz.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await migrate(conn, bundled_migrations()[:7])
        for statement in (
            "INSERT INTO channels (id, platform, workspace, channel, timezone, reveal_emoji,"
            " reveal_min_reactors, followup_policy, grace_hours)"
            " VALUES (1, 'slack', 'T', 'C', 'UTC', 'x', 1, 'after_first_answer', 6)",
            "INSERT INTO questions (id, pack, question, topic, content_hash)"
            " VALUES (1, 'p', 'q', 't', 'h')",
            "INSERT INTO rounds (id, channel_id, question_id, number, scheduled_for, scheduled,"
            " state, created_at) VALUES (1, 1, 1, 1, :t0, 1, 'open', :t0)",
            "INSERT INTO outbox (id, round_id, kind, key, state, attempts, next_attempt_at,"
            " created_at, updated_at, result_ref) VALUES (5, 1, 'question', 'round:1:question',"
            " 'done', 1, :t0, :t0, :t1, 'm1')",
        ):
            await conn.execute(statement, {"t0": T0, "t1": T1})
    async with SqliteStore.open(path) as store:
        assert store.migration is not None and store.migration.from_version == 7
        (kept,) = await round_actions(store, 1)
        assert (kept.id, kept.key, kept.result_ref, kept.destination) == (
            5,
            "round:1:question",
            "m1",
            None,
        )
    with sqlite3.connect(path) as raw, pytest.raises(sqlite3.IntegrityError):
        raw.execute(  # an action needs a round or a destination
            "INSERT INTO outbox (kind, key, state, next_attempt_at, created_at, updated_at)"
            " VALUES ('direct', 'k', 'pending', :t0, :t0, :t0)",
            {"t0": T0},
        )
    assert {"reminders"} <= tables_of(path)


async def test_the_database_copy_takes_every_table_of_the_schema(tmp_path: Path) -> None:
    """``quizbot db copy`` moves a deployment between backends: a table it does not list
    would be left behind (three added tables were, until this test)."""
    path = tmp_path / "quiz.db"
    async with SqliteStore.open(path):
        pass
    schema = {t for t in tables_of(path) if not t.startswith("sqlite_")}
    assert schema - set(COPIED_TABLES) == set()
