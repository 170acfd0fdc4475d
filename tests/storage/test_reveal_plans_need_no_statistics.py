"""The reveal's statements and retention's use their indexes on a database that has no
planner statistics yet (no ANALYZE: a first run after an upgrade or ``quizbot db copy``),
so their speed does not wait for ``PRAGMA optimize`` at the first clean stop.

A guard, not a fix: measured on a year of history (1,000,000 answers, 250,000 outbox
actions, 2.4 million event ids), the plans were the same with and without statistics, on
SQLite and on PostgreSQL before ANALYZE; the first run's slow reveals came from the
retention pass (``tests/core/outbox/test_retention_leaves_the_store_to_other_work.py``). PostgreSQL
is left out here: on a test's near-empty tables its planner rightly scans them."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from storage.outbox_queries import (
    DONE_ACTIONS_BEFORE,
    OLDEST_EVENTS,
    due_actions_sql,
    next_due_sql,
)
from storage.sql.deliveries import SEEN
from storage.sql.rounds import PENDING_OF_ROUND, REVEAL, ROUND_BY_MESSAGE
from storage.sqlite.store import SqliteStore

STATEMENTS: dict[str, tuple[str, Any, set[str]]] = {
    "reveal by the question's message": (
        REVEAL.format(round_id=ROUND_BY_MESSAGE),
        ("2026-12-01", 1, "m1"),
        {"rounds USING INTEGER PRIMARY KEY", "rounds USING COVERING INDEX rounds_by_question"},
    ),
    "a round's pending actions": (PENDING_OF_ROUND, (1,), {"outbox USING INDEX outbox_by_round"}),
    "an event seen before": (
        SEEN,
        ("slack", "e1"),
        {"processed_events USING COVERING INDEX sqlite_autoindex_processed_events_1"},
    ),
    "due actions": (
        due_actions_sql(1),
        ("2026-12-01", "slack", "slack", 100),
        {"outbox USING INDEX outbox_due"},
    ),
    "the next due time": (
        next_due_sql(1),
        ("2026-12-01", "slack", "slack"),
        {"outbox USING INDEX outbox_due"},
    ),
    "done actions to prune": (
        DONE_ACTIONS_BEFORE,
        {"cutoff": "2026-12-01", "after_at": "", "after_id": 0, "limit": 25},
        {"o USING INDEX outbox_due", "r USING INTEGER PRIMARY KEY"},
    ),
    "oldest event ids": (OLDEST_EVENTS, (25,), {"SCAN processed_events"}),  # rowid order
}


@pytest.mark.parametrize("name", list(STATEMENTS))
async def test_the_plan_uses_the_index_without_statistics(tmp_path: Path, name: str) -> None:
    path = tmp_path / "quiz.db"
    async with SqliteStore.open(path):
        pass  # migrated, never analyzed
    sql, params, expected = STATEMENTS[name]
    with closing(sqlite3.connect(path)) as conn:
        analyzed = conn.execute("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'")
        assert (
            analyzed.fetchone() is None
            or not conn.execute("SELECT COUNT(*) FROM sqlite_stat1").fetchone()[0]
        )
        plan = " | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))
    for step in expected:
        assert step in plan, plan
    assert "USE TEMP B-TREE" not in plan or name == "due actions", plan
