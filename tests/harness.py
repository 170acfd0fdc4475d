"""Drives a QuizService on a FakePlatform, the way members would (errbot's testbot, for quizbot)."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bot.coaching.setup import CoachSetup
from bot.kernel.clock import Clock
from bot.kernel.config import QuizConfig
from bot.kernel.events import ButtonPress, Command, Reaction, Reply
from bot.kernel.metrics import Metrics
from bot.kernel.models import Round
from bot.kernel.platform import Platform
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.kernel.render import Response
from bot.service import QuizService
from bot.store import Store
from questions.catalog import Catalog
from storage.sqlite.store import DEFAULT_BUSY_TIMEOUT_MS, SqliteStore
from tests.fakes import FakeClock, FakePlatform, Sent
from tests.storage.backends import open_store

CHANNEL = ChannelRef("fake", "team", "C1", "practice")


@asynccontextmanager
async def harness_on(
    backend: str, tmp_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog
) -> AsyncIterator[QuizHarness]:
    """A started quiz on one store backend (``sqlite`` or ``postgres``), no background work."""
    async with open_store(backend, tmp_path) as store:
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=catalog,
            clock=clock,
            config=QuizConfig(default_schedule=None),
            rng=random.Random(7),
            background=False,
        )
        await service.start()
        try:
            yield QuizHarness(service, platform, clock)
        finally:
            await service.stop()


@asynccontextmanager
async def running_service(
    db_path: Path,
    platforms: Sequence[Platform] | Callable[[SqliteStore], Sequence[Platform]],
    clock: Clock,
    catalog: Catalog,
    config: QuizConfig | None = None,
    *,
    metrics: Callable[[Store], Metrics] | None = None,
    seed: int = 7,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    coach: CoachSetup | None = None,
) -> AsyncIterator[QuizService]:
    """A started QuizService on the database at ``db_path``, with no background work:
    tests decide when slots fire and when the outbox runs (``settle``). ``platforms`` may
    be built from the store, as a platform that keeps state there is."""
    async with SqliteStore.open(db_path, busy_timeout_ms=busy_timeout_ms) as store:
        if callable(platforms):
            platforms = platforms(store)
        service = QuizService(
            store=store,
            platforms={p.name: p for p in platforms},
            catalog=catalog,
            clock=clock,
            config=config or QuizConfig(default_schedule=None),
            rng=random.Random(seed),
            background=False,
            metrics=metrics(store) if metrics else None,
            coach=coach,
        )
        await service.start()
        try:
            yield service
        finally:
            await service.stop()


@dataclass
class QuizHarness:
    service: QuizService
    platform: FakePlatform
    clock: FakeClock
    channel: ChannelRef = CHANNEL
    _events: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def member(self, name: str) -> MemberRef:
        return MemberRef(self.platform.name, self.channel.workspace, name, name.title())

    def event_id(self) -> str:
        return f"ev{next(self._events)}"

    async def command(self, text: str, *, by: str = "admin", settle: bool = True) -> Response:
        self.clock.advance(seconds=1)  # commands take time; two `/quiz now` are two rounds
        name, *args = text.split() or [""]
        event = Command(self.event_id(), self.channel, self.member(by), name, tuple(args))
        response = await self.service.handle(event)
        assert response is not None
        if settle:
            await self.service.settle()
        return response

    async def round(self) -> Round:
        channel = await self.service.engine.channel(self.channel)
        assert channel is not None
        round_ = await self.service.store.rounds.latest_round(channel.id)
        assert round_ is not None
        return round_

    async def thread(self) -> str:
        round_ = await self.round()
        assert round_.thread is not None, "the round's thread is not open yet"
        return round_.thread

    async def answer(
        self,
        by: str,
        text: str,
        *,
        event_id: str | None = None,
        message_id: str | None = None,
        settle: bool = True,
    ) -> str:
        thread = await self.thread()
        message = message_id or f"a{next(self._events)}"
        await self.service.handle(
            Reply(
                event_id or self.event_id(),
                self.channel,
                ThreadRef(self.channel, thread),
                MessageRef(self.channel, message),
                self.member(by),
                text,
            )
        )
        if settle:
            await self.service.settle()
        return message

    async def edit(self, by: str, message_id: str, text: str) -> None:
        thread = await self.thread()
        await self.service.handle(
            Reply(
                self.event_id(),
                self.channel,
                ThreadRef(self.channel, thread),
                MessageRef(self.channel, message_id),
                self.member(by),
                text,
                edited=True,
            )
        )

    async def react(
        self,
        by: str,
        emoji: str,
        *,
        message_id: str | None = None,
        event_id: str | None = None,
        settle: bool = True,
    ) -> None:
        if message_id is None:
            round_ = await self.round()
            assert round_.question_message is not None
            message_id = round_.question_message
        await self.service.handle(
            Reaction(
                event_id or self.event_id(),
                self.channel,
                MessageRef(self.channel, message_id),
                self.member(by),
                emoji,
            )
        )
        if settle:
            await self.service.settle()

    async def press_reveal(self, by: str) -> Response | None:
        round_ = await self.round()
        assert round_.question_message is not None
        response = await self.service.handle(
            ButtonPress(
                self.event_id(),
                self.channel,
                MessageRef(self.channel, round_.question_message),
                self.member(by),
                "reveal",
                str(round_.id),
            )
        )
        await self.service.settle()
        return response

    async def thread_titles(self) -> list[str]:
        return self.platform.titles(await self.thread())

    async def thread_messages(self) -> list[Sent]:
        return self.platform.in_thread(await self.thread())
