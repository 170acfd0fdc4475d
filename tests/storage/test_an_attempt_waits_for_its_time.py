"""An attempt begins only once its action is due, on both backends: a copy of an action
read before a retry put it off (the reveal's hand-over is one) cannot start it early."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from storage.sqlite.store import SqliteStore
from tests.storage.backends import BACKENDS, open_store
from tests.storage.test_store import T0, new_channel, new_round


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened  # type: ignore[misc]  # both backends, typed as SQLite's for brevity


async def test_an_action_put_off_by_a_retry_is_not_begun_before_its_time(
    store: SqliteStore,
) -> None:
    await new_round(store, await new_channel(store))
    question, *_ = await store.outbox.due_actions(T0)
    later = T0 + timedelta(minutes=1)
    await store.outbox.retry_action(question.id, "HTTP 500", later, at=T0)

    assert await store.outbox.begin_attempt(question.id, T0) is None
    begun = await store.outbox.begin_attempt(question.id, later)
    assert begun is not None and begun.attempts == 1


async def test_the_next_action_put_off_is_not_begun_with_the_previous_ones_completion(
    store: SqliteStore,
) -> None:
    round_ = await new_round(store, await new_channel(store))
    question, thread, _ = await store.outbox.due_actions(T0)
    assert await store.outbox.begin_attempt(question.id, T0) is not None
    later = T0 + timedelta(minutes=1)
    await store.outbox.postpone_actions([thread.id], later, at=T0)

    assert await store.outbox.complete_and_begin(question.id, "msg-1", thread.id, T0) is None
    posted = await store.rounds.get_round(round_.id)
    assert posted is not None and posted.question_message == "msg-1"  # the completion stands
    begun = await store.outbox.begin_attempt(thread.id, later)
    assert begun is not None and begun.attempts == 1
