"""Every timestamp the store writes is a time it was given (the injected clock), never
the wall clock: a retry's ``updated_at`` and a reveal reactor's ``reacted_at``, on both
backends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from storage.postgres.store import PostgresStore
from storage.sqlite.store import SqliteStore
from storage.timestamps import to_db
from tests.storage.backends import BACKENDS, open_store
from tests.storage.test_store import member, new_channel, new_round
from tests.store_reads import round_actions

LONG_AGO = datetime(2001, 1, 1, 9, 0, tzinfo=UTC)  # far from the wall clock


async def _column(store: object, sql: str) -> str:
    assert isinstance(store, SqliteStore | PostgresStore)
    row = await store.database.fetch_one(sql)
    assert row is not None
    return str(row[0])


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_retry_is_stamped_with_the_given_time(backend: str, tmp_path: Path) -> None:
    async with open_store(backend, tmp_path) as store:
        round_ = await new_round(store, await new_channel(store), LONG_AGO)
        question, *_ = await round_actions(store, round_.id)
        await store.outbox.retry_action(
            question.id, "HTTP 500", LONG_AGO + timedelta(minutes=5), at=LONG_AGO
        )
        updated = await _column(store, f"SELECT updated_at FROM outbox WHERE id = {question.id}")
    assert updated == to_db(LONG_AGO)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_reveal_reactor_is_stamped_with_the_given_time(
    backend: str, tmp_path: Path
) -> None:
    async with open_store(backend, tmp_path) as store:
        round_ = await new_round(store, await new_channel(store), LONG_AGO)
        ann = await member(store, "ann")
        assert await store.rounds.add_reveal_reactor(round_.id, ann, at=LONG_AGO) == 1
        reacted = await _column(store, "SELECT reacted_at FROM reveal_reactors")
    assert reacted == to_db(LONG_AGO)
