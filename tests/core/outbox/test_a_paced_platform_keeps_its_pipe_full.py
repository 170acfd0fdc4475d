"""A platform that paces all its requests itself (Discord: one budget of 45 a second for
the process) keeps that budget in use only with enough sends in flight to cover each
request's round trip; it says how many (``send_slots``) and the outbox runs that many
rounds at once, not its default 8. With 8 and a 300 ms round trip, 8 requests were
in flight and 200 channels' 600 requests took 20.7 s where the budget allows 13.3 s."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from bot.kernel.config import QuizConfig
from bot.kernel.refs import ChannelRef, MessageRef, ThreadRef
from bot.kernel.render import Card
from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform
from tests.harness import CHANNEL, QuizHarness, running_service

SLOTS = 24


class RoundTripPlatform(FakePlatform):
    """Every request waits for its answer until the test releases them all; counts how
    many are in flight at once."""

    send_slots = SLOTS

    def __init__(self) -> None:
        super().__init__()
        self.in_flight = 0
        self.most = 0
        self.answers = asyncio.Event()
        self.full = asyncio.Event()  # as many requests in flight as the platform asked

    async def _round_trip(self) -> None:
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        if self.in_flight >= SLOTS:
            self.full.set()
        try:
            await self.answers.wait()
        finally:
            self.in_flight -= 1

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        await self._round_trip()
        return await super().post(channel, card, key=key)

    async def open_thread(self, message: MessageRef, title: str, *, key: str) -> ThreadRef:
        await self._round_trip()
        return await super().open_thread(message, title, key=key)

    async def react(self, message: MessageRef, emoji: str) -> None:
        await self._round_trip()
        await super().react(message, emoji)


async def test_the_outbox_runs_as_many_rounds_at_once_as_the_platform_asks(
    db_path: Path, clock: FakeClock, catalog: Catalog
) -> None:
    platform = RoundTripPlatform()
    config = QuizConfig(default_schedule=None)
    assert config.send_concurrency < SLOTS
    async with running_service(db_path, [platform], clock, catalog, config) as service:
        quiz = QuizHarness(service, platform, clock)
        for n in range(40):
            quiz.channel = replace(CHANNEL, channel_id=f"C{n}")
            await quiz.command("now", settle=False)
        sending = asyncio.create_task(service.outbox.run_due())
        try:
            # met in milliseconds once the rounds are on their way (a guard, not a wait)
            async with asyncio.timeout(10):
                await platform.full.wait()
        except TimeoutError:
            pytest.fail(f"{platform.in_flight} requests in flight, the platform asked {SLOTS}")
        finally:
            platform.answers.set()
            await sending
        await service.settle()
    assert platform.most == SLOTS  # and never more
    assert len(platform.in_channel()) == 40
    assert len(platform.reactions) == 40
