"""The outbox poll is driven by the due index at any history size, even after ANALYZE.

SQLite only: it reads SQLite's query plans (``EXPLAIN QUERY PLAN`` of the traced
statements, with its ``INDEXED BY`` hints); PostgreSQL's outbox claims are other
statements, planned by the server."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from storage.sqlite.store import SqliteStore
from storage.timestamps import to_db

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
KINDS = ("question", "thread", "hint", "follow_ups", "outline")


def fill_with_done_history(path: Path, rounds: int = 3000) -> None:
    """Rounds on two platforms with every action done: the shape that misled the planner."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("BEGIN")
        conn.execute(
            "INSERT INTO questions (id, pack, question, topic, content_hash)"
            " VALUES (1, 'p', 'q', 't', 'h')"
        )
        conn.executemany(
            "INSERT INTO channels (id, platform, workspace, channel, timezone, reveal_emoji,"
            " reveal_min_reactors, followup_policy, grace_hours)"
            " VALUES (?, ?, 'w', ?, 'UTC', 'x', 1, 'after_first_answer', 6)",
            [(c, ("slack", "discord")[c % 2], f"C{c}") for c in range(1, 21)],
        )
        conn.executemany(
            "INSERT INTO rounds (id, channel_id, question_id, number, scheduled_for, scheduled,"
            " state, created_at) VALUES (?, ?, 1, ?, ?, 1, 'closed', ?4)",
            [(r, r % 20 + 1, r, to_db(T0 + timedelta(minutes=r))) for r in range(1, rounds + 1)],
        )
        conn.executemany(
            "INSERT INTO outbox (round_id, kind, key, state, attempts, next_attempt_at,"
            " created_at, updated_at) SELECT id, ?1, 'round:' || id || ':' || ?1, 'done', 1,"
            " scheduled_for, scheduled_for, scheduled_for FROM rounds",
            [(kind,) for kind in KINDS],
        )
        conn.execute("COMMIT")


def plan_of(path: Path, sql: str) -> str:
    with closing(sqlite3.connect(path)) as conn:
        return " | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))


async def traced(store: SqliteStore, platforms: set[str] | None) -> list[str]:
    statements: list[str] = []
    conn = store.database.conn  # the test looks at the SQL the store really runs
    assert conn is not None
    await conn.set_trace_callback(statements.append)
    await store.outbox.due_actions(T0 + timedelta(days=30), limit=1000, platforms=platforms)
    await store.outbox.next_due_after(T0, platforms=platforms)
    await conn.set_trace_callback(None)  # type: ignore[arg-type]  # None turns tracing off
    return [s for s in statements if "FROM outbox" in s]


async def test_due_queries_use_the_due_index_after_analyze(tmp_path: Path) -> None:
    path = tmp_path / "quiz.db"
    async with SqliteStore.open(path):
        pass
    fill_with_done_history(path)
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("ANALYZE")
    async with SqliteStore.open(path) as store:  # closing runs PRAGMA optimize too
        await store.outbox.due_actions(T0, platforms={"slack"})
    async with SqliteStore.open(path) as store:
        for platforms in ({"slack"}, {"slack", "discord"}, None):
            statements = await traced(store, platforms)
            assert len(statements) == 2
            for sql in statements:
                plan = plan_of(path, sql)
                assert re.search(
                    r"SEARCH outbox USING (COVERING )?INDEX outbox_due \(state=\?", plan
                )
                assert "outbox_by_round" not in plan, plan


async def test_due_actions_filters_by_platform(tmp_path: Path) -> None:
    path = tmp_path / "quiz.db"
    async with SqliteStore.open(path):
        pass
    fill_with_done_history(path, rounds=40)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute(
            "UPDATE outbox SET state = 'pending', next_attempt_at = ? WHERE kind = 'outline'",
            (to_db(T0 + timedelta(days=1)),),
        )
    async with SqliteStore.open(path) as store:
        due = await store.outbox.due_actions(T0 + timedelta(days=2), platforms={"slack"})
        assert len(due) == 20 and all(a.kind.value == "outline" for a in due)
        rounds = [a.round_id for a in due if a.round_id is not None]
        assert len(rounds) == 20 and {r % 2 for r in rounds} == {1}  # r % 20 + 1 even: slack
        assert await store.outbox.due_actions(T0, platforms={"slack"}) == []
        assert await store.outbox.next_due_after(T0, platforms={"slack"}) == T0 + timedelta(days=1)
        assert (
            await store.outbox.next_due_after(T0 + timedelta(days=1), platforms={"slack"}) is None
        )
        assert await store.outbox.next_due_after(T0, platforms={"console"}) is None
