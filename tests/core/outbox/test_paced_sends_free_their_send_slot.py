"""A message that must wait for its channel's pacing does not hold one of the outbox's
send slots while it waits: the outbox puts it off until the platform takes it, and
other channels' rounds go out meanwhile."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace
from pathlib import Path

import pytest

from bot.kernel.config import QuizConfig
from questions.catalog import Catalog
from tests.fakes import ChannelPacedPlatform, FakeClock, VirtualTime
from tests.harness import CHANNEL, QuizHarness, running_service

POLICIES = ("immediately", "after_first_answer", "with_reveal")


async def test_follow_ups_waiting_for_their_channels_pacing_do_not_serialise_the_fan_out(
    db_path: Path, clock: FakeClock, catalog: Catalog
) -> None:
    time = VirtualTime()
    platform = ChannelPacedPlatform(time, interval=1.0)
    config = QuizConfig(default_schedule=None, send_concurrency=2)
    async with running_service(db_path, [platform], clock, catalog, config) as service:
        channels = 9
        policies = itertools.cycle(POLICIES)
        quiz = QuizHarness(service, platform, clock)
        for n in range(channels):
            quiz.channel = replace(CHANNEL, channel_id=f"C{n}")
            await quiz.command(f"config followups {next(policies)}", settle=False)
            await quiz.command("now", settle=False)
        try:
            # A guard against a hang, met in milliseconds: the platform's pacing sleeps
            # on virtual time, which moves only when the test says.
            async with asyncio.timeout(10):
                await service.outbox.run_due()
        except TimeoutError:
            pytest.fail(
                f"{len(time.slept)} sends waited for pacing inside their send slot and"
                f" {len(platform.reactions)} of {channels} rounds went out meanwhile"
            )
        # Every round's question, thread and hint went out on two slots, and the three
        # rounds that post their follow-ups at once wait a second for their channel.
        assert len(platform.in_channel()) == channels
        assert len(platform.reactions) == channels
        assert [m for m in platform.messages if m.thread] == []
        assert time.slept == []
        assert await service.outbox.run_once(idle_seconds=600) == 1.0
        time.advance(1.0)
        clock.advance(seconds=1)
        await service.settle()
    follow_ups = [m for m in platform.messages if m.thread is not None]
    assert len(follow_ups) == 3
    assert all(m.key.endswith(":follow_ups") for m in follow_ups)
    assert time.slept == []  # none was sent early, to sleep inside the send
