"""Replicas sharing a store: one outbox pass takes only about what its send slots get
through, so the other replicas find the rest due instead of one replica claiming a whole
fan-out (alone on SQLite, a pass takes everything that is due)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.kernel.config import QuizConfig
from bot.kernel.refs import ChannelRef
from bot.outbox.worker import SHARED_PASS_PER_SLOT
from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform
from tests.harness import running_service

ROUNDS = 30


@pytest.mark.parametrize("shared", [False, True])
async def test_a_pass_takes_a_share_of_the_fan_out_when_replicas_share_the_store(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    config: QuizConfig,
    shared: bool,
) -> None:
    config = dataclasses.replace(config, replicas_share_store=shared, send_concurrency=2)
    async with running_service(db_path, [platform], clock, catalog, config) as service:
        for number in range(ROUNDS):
            channel = await service.engine.create_channel(
                ChannelRef(platform.name, "team", f"C{number}")
            )
            await service.engine.start_round(channel, scheduled_for=clock.now(), scheduled=True)
        due = len(await service.store.outbox.due_actions(clock.now(), limit=10_000))
        assert due > 2 * SHARED_PASS_PER_SLOT

        first_pass = await service.outbox.run_due()
        if shared:
            assert first_pass == 2 * SHARED_PASS_PER_SLOT
        else:
            assert first_pass == due
        await service.settle()
        questions = [m for m in platform.messages if m.key.endswith(":question")]
        assert len(questions) == ROUNDS
