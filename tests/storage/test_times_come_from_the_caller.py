"""Every timestamp the store writes is a time it was given (the injected clock), never
the wall clock: a retry's ``updated_at`` and a reveal reactor's ``reacted_at``."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from storage.sqlite_store import SqliteStore
from storage.timestamps import to_db
from tests.storage.test_store import member, new_channel, new_round
from tests.store_reads import round_actions

LONG_AGO = datetime(2001, 1, 1, 9, 0, tzinfo=UTC)  # far from the wall clock


def _column(db_path: Path, sql: str) -> str:
    with closing(sqlite3.connect(db_path)) as conn:
        return str(conn.execute(sql).fetchone()[0])


async def test_a_retry_is_stamped_with_the_given_time(tmp_path: Path) -> None:
    db_path = tmp_path / "quiz.db"
    async with SqliteStore.open(db_path) as store:
        round_ = await new_round(store, await new_channel(store), LONG_AGO)
        question, *_ = await round_actions(store, round_.id)
        await store.outbox.retry_action(
            question.id, "HTTP 500", LONG_AGO + timedelta(minutes=5), at=LONG_AGO
        )
    updated = _column(db_path, f"SELECT updated_at FROM outbox WHERE id = {question.id}")
    assert updated == to_db(LONG_AGO)


async def test_a_reveal_reactor_is_stamped_with_the_given_time(tmp_path: Path) -> None:
    db_path = tmp_path / "quiz.db"
    async with SqliteStore.open(db_path) as store:
        round_ = await new_round(store, await new_channel(store), LONG_AGO)
        ann = await member(store, "ann")
        assert await store.rounds.add_reveal_reactor(round_.id, ann, at=LONG_AGO) == 1
    reacted = _column(db_path, "SELECT reacted_at FROM reveal_reactors")
    assert reacted == to_db(LONG_AGO)
