"""Replicas sharing PostgreSQL act on a channel's settings as another replica changed them."""

from __future__ import annotations

import itertools
import random
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.config import QuizConfig
from bot.events import Command
from bot.models import ChannelSettings
from bot.refs import ChannelRef, MemberRef
from bot.service import QuizService
from questions.catalog import Catalog
from storage.postgres_store import PostgresStore
from tests.conftest import sample_pack
from tests.fakes import FakeClock, FakePlatform
from tests.storage.backends import postgres_schema

# Wednesday 2031-01-15 06:00 UTC
START = datetime(2031, 1, 15, 6, 0, tzinfo=UTC)
CHANNEL = ChannelRef("fake", "team", "C1", "practice")
ADMIN = MemberRef("fake", "team", "admin", "Admin")
_event_ids = itertools.count(1)

StoreSetup = Callable[[PostgresStore], None]


@dataclass
class Replicas:
    a: QuizService
    b: QuizService
    url: str
    b_name: str  # b's name in outbox claims; its listener's application_name has it


@asynccontextmanager
async def replica(
    url: str,
    name: str,
    platform: FakePlatform,
    clock: FakeClock,
    *,
    background: bool,
    setup: StoreSetup | None = None,
) -> AsyncIterator[QuizService]:
    async with PostgresStore.open(url, replica=name) as store:
        if setup is not None:
            setup(store)
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=Catalog([sample_pack()]),
            clock=clock,
            config=QuizConfig(default_schedule=None, replicas_share_store=True),
            rng=random.Random(7),
            background=background,
        )
        await service.start()
        try:
            yield service
        finally:
            await service.stop()


@asynccontextmanager
async def two_replicas(
    *, background: bool, before_b: tuple[str, ...] = (), setup_b: StoreSetup | None = None
) -> AsyncIterator[Replicas]:
    """Replicas a and b on one database; ``before_b``: a's commands before b starts."""
    platform = FakePlatform()  # one workspace, which both replicas post to
    clock = FakeClock(START)
    run = uuid.uuid4().hex[:8]  # names no other test's replica has
    async with postgres_schema() as url, AsyncExitStack() as stack:
        a = await stack.enter_async_context(
            replica(url, f"a-{run}", platform, clock, background=False)
        )
        for text in before_b:
            await command(a, text)
        b = await stack.enter_async_context(
            replica(url, f"b-{run}", platform, clock, background=background, setup=setup_b)
        )
        yield Replicas(a, b, url, f"b-{run}")


async def command(service: QuizService, text: str) -> None:
    name, *args = text.split()
    event = Command(f"ev{next(_event_ids)}", CHANNEL, ADMIN, name, tuple(args))
    response = await service.handle(event)
    assert response is not None


async def stored_channel(service: QuizService) -> ChannelSettings:
    channel = await service.store.get_channel(CHANNEL)
    assert channel is not None
    return channel


async def test_an_admin_command_on_a_replica_that_missed_a_change_keeps_that_change() -> None:
    """Each admin command saves all of a channel's settings: one built on settings a replica
    kept from before another replica's change would undo that change."""
    async with two_replicas(background=False, before_b=("now",)) as replicas:
        a, b = replicas.a, replicas.b
        await command(b, "stats")  # b has read the channel's settings
        await command(a, "config reveal-emoji 🔍")

        await command(b, "pause")

        stored = await stored_channel(a)
        assert stored.paused
        assert stored.reveal_emoji == "🔍", "replica b's pause undid the reveal emoji a set"
