"""Recaps caught up at start are recorded together (one transaction for any number of
channels), on both backends: each once with its outbox action, a week recorded already
left as it is."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.kernel.models import ActionKind, ChannelSettings
from bot.kernel.refs import ChannelRef
from bot.recaps.store import RecapRecord
from bot.store import Store
from questions.catalog import QuestionKey
from tests.storage.backends import BACKENDS, open_store

SLOT = datetime(2026, 12, 4, 16, 0, tzinfo=UTC)
AT = datetime(2026, 12, 4, 17, 0, tzinfo=UTC)


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def channel_with_a_round(store: Store, number: int, question: int) -> tuple[int, int]:
    ref = ChannelRef("fake", "team", f"C{number}", f"#quiz{number}")
    channel = await store.channels.create_channel(ChannelSettings(0, ref, "UTC"))
    round_ = await store.rounds.create_round(
        channel.id, lambda asked: question, SLOT, scheduled=True, created_at=SLOT, actions=()
    )
    assert round_ is not None
    return channel.id, round_.id


async def test_many_recaps_are_recorded_together_each_once(store: Store) -> None:
    ids = await store.rounds.sync_questions([QuestionKey("p", "q1", "gpu", "h1")])
    rounds = [await channel_with_a_round(store, n, ids[("p", "q1")]) for n in range(3)]
    recaps = [
        (RecapRecord(channel, "2026-W49", SLOT, f"recap:{channel}:2026-W49"), round_id)
        for channel, round_id in rounds
    ]
    first, first_round = recaps[0]
    assert await store.recaps.record_recap(first, first_round, AT)
    # the one recorded already is left as it is; the others are recorded with their action
    assert await store.recaps.record_recaps(recaps, AT) == {r.key for r, _ in recaps[1:]}
    assert await store.recaps.record_recaps(recaps, AT) == set()
    assert await store.recaps.record_recaps([], AT) == set()
    keys = {r.key for r, _ in recaps}
    assert await store.recaps.recorded_keys(keys) == keys
    queued = [a for a in await store.outbox.due_actions(AT) if a.kind is ActionKind.RECAP]
    assert sorted((a.key, a.round_id) for a in queued) == sorted(
        (r.key, round_id) for r, round_id in recaps
    )
    assert await store.recaps.recap_by_key(first.key) == first


async def test_the_weeks_of_thousands_of_recaps_are_read_in_order(store: Store) -> None:
    ids = await store.rounds.sync_questions([QuestionKey("p", "q1", "gpu", "h1")])
    (channel, round_id), (other, other_round) = [
        await channel_with_a_round(store, n, ids[("p", "q1")]) for n in range(2)
    ]
    week = (SLOT - timedelta(days=1), SLOT + timedelta(minutes=1))
    before = (SLOT - timedelta(days=8), SLOT - timedelta(days=1))
    windows = [(channel, *week), (other, *before), (other, *week)] * 900  # 2,700: two batches
    assert (
        await store.recaps.last_rounds_between(windows)
        == [
            round_id,
            None,
            other_round,
        ]
        * 900
    )
