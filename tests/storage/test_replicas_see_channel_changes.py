"""Replicas sharing PostgreSQL act on a channel's settings as another replica changed them:
a ``/quiz`` command handled by one replica reaches the other's cached settings and its
scheduler at once (NOTIFY), or with the next reconciliation when the notice was missed.

The clock sits years ahead of the wall clock, so APScheduler (which decides due-ness by
the wall clock) never fires a job on its own here; the tests read the jobs' next slots.
The only waits are for PostgreSQL to deliver a notice (bounded; a few milliseconds).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import random
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

import asyncpg
import pytest

from bot.channel_sync import ChannelSync
from bot.kernel.config import QuizConfig
from bot.kernel.events import Command, Reaction
from bot.kernel.models import ChannelSettings, Round
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef
from bot.service import QuizService
from questions.catalog import Catalog
from questions.pack import Difficulty
from storage.postgres.store import PostgresStore
from tests.conftest import sample_pack
from tests.core.practice.test_difficulty import levels_pack
from tests.fakes import FakeClock, FakePlatform
from tests.storage.backends import postgres_schema

# Wednesday 2031-01-15 06:00 UTC
START = datetime(2031, 1, 15, 6, 0, tzinfo=UTC)
CHANNEL = ChannelRef("fake", "team", "C1", "practice")
ADMIN = MemberRef("fake", "team", "admin", "Admin")
NOTICE_SECONDS = 10.0  # how long a notice may take to arrive before the test gives up
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
    catalog: Catalog | None = None,
) -> AsyncIterator[QuizService]:
    async with PostgresStore.open(url, replica=name) as store:
        if setup is not None:
            setup(store)
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=catalog or Catalog([sample_pack()]),
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
    *,
    background: bool,
    before_b: tuple[str, ...] = (),
    setup_b: StoreSetup | None = None,
    catalog: Catalog | None = None,
) -> AsyncIterator[Replicas]:
    """Replicas a and b on one database; ``before_b``: a's commands before b starts."""
    platform = FakePlatform()  # one workspace, which both replicas post to
    clock = FakeClock(START)
    run = uuid.uuid4().hex[:8]  # names no other test's replica has
    async with postgres_schema() as url, AsyncExitStack() as stack:
        a = await stack.enter_async_context(
            replica(url, f"a-{run}", platform, clock, background=False, catalog=catalog)
        )
        for text in before_b:
            await command(a, text)
        b = await stack.enter_async_context(
            replica(
                url,
                f"b-{run}",
                platform,
                clock,
                background=background,
                setup=setup_b,
                catalog=catalog,
            )
        )
        yield Replicas(a, b, url, f"b-{run}")


async def command(service: QuizService, text: str) -> None:
    name, *args = text.split()
    event = Command(f"ev{next(_event_ids)}", CHANNEL, ADMIN, name, tuple(args))
    response = await service.handle(event)
    assert response is not None


async def react(service: QuizService, message_id: str, emoji: str) -> None:
    event = Reaction(
        f"ev{next(_event_ids)}",
        CHANNEL,
        MessageRef(CHANNEL, message_id),
        MemberRef("fake", "team", "ann", "Ann"),
        emoji,
    )
    await service.handle(event)


async def stored_channel(service: QuizService) -> ChannelSettings:
    channel = await service.store.channels.get_channel(CHANNEL)
    assert channel is not None
    return channel


async def latest_round(service: QuizService) -> Round:
    round_ = await service.store.rounds.latest_round((await stored_channel(service)).id)
    assert round_ is not None
    return round_


def sync_of(service: QuizService) -> ChannelSync:
    assert service.channel_sync is not None, "a PostgreSQL store follows channel changes"
    return service.channel_sync


async def heard(service: QuizService, stored: ChannelSettings) -> None:
    """Returns once ``service`` keeps the channel's settings as ``stored``: a notice of
    an earlier change may arrive first."""
    while True:
        arrived = sync_of(service).next_refresh(stored.id)
        if service.engine.cached_channel(stored.ref) == stored:
            arrived.cancel()
            return
        await asyncio.wait_for(arrived, NOTICE_SECONDS)


async def change_on_a(replicas: Replicas, text: str) -> ChannelSettings:
    """``text`` run on a; returns the settings stored, once b has heard of them."""
    await command(replicas.a, text)
    stored = await stored_channel(replicas.a)
    await heard(replicas.b, stored)
    return stored


def next_slot_on(service: QuizService, channel_id: int) -> datetime | None:
    assert service.scheduler is not None
    return service.scheduler.next_run(channel_id)


async def listener_backends(url: str, replica_name: str) -> list[int]:
    """The server processes of ``replica_name``'s listening connections."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1",
            f"quizbot listener {replica_name}",
        )
        return [row["pid"] for row in rows]
    finally:
        await conn.close()


async def drop_listener(replicas: Replicas) -> None:
    """The server ends b's listening connection (a restart, a network cut)."""
    [pid] = await listener_backends(replicas.url, replicas.b_name)
    conn = await asyncpg.connect(replicas.url)
    try:
        assert await conn.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await conn.close()
    for _ in range(100):  # the termination reaches b's connection as the loop turns
        if not sync_of(replicas.b).listening:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("b did not notice its listener was dropped")


async def test_a_reveal_emoji_set_on_one_replica_is_the_one_the_other_reveals_on() -> None:
    async with two_replicas(background=False) as replicas:
        a, b = replicas.a, replicas.b
        await command(a, "now")
        await a.settle()
        question = (await latest_round(a)).question_message
        assert question is not None
        await command(b, "stats")  # b has read the channel's settings

        await change_on_a(replicas, "config reveal-emoji 🔍")

        await react(b, question, "💡")  # the emoji until a's change
        assert (await latest_round(b)).revealed_at is None, (
            "replica b revealed on the old reveal emoji 💡 after replica a set 🔍"
        )
        await react(b, question, "🔍")
        assert (await latest_round(b)).revealed_at is not None


async def test_a_schedule_set_on_one_replica_moves_the_other_replicas_slots() -> None:
    async with two_replicas(background=True, before_b=("schedule weekdays 09:30 UTC",)) as r:
        channel = await stored_channel(r.a)
        assert next_slot_on(r.b, channel.id) == datetime(2031, 1, 15, 9, 30, tzinfo=UTC)

        await change_on_a(r, "schedule weekdays 12:00 UTC")
        assert next_slot_on(r.b, channel.id) == datetime(2031, 1, 15, 12, 0, tzinfo=UTC), (
            "replica b still fires the old schedule's slot"
        )

        await change_on_a(r, "pause")
        assert next_slot_on(r.b, channel.id) is None, "replica b still fires a paused channel"

        await change_on_a(r, "resume")
        assert next_slot_on(r.b, channel.id) == datetime(2031, 1, 15, 12, 0, tzinfo=UTC)


async def test_a_difficulty_set_on_one_replica_limits_the_other_replicas_questions() -> None:
    async with two_replicas(background=False, catalog=Catalog([levels_pack()])) as replicas:
        b = replicas.b
        await command(b, "stats")  # b has read the channel's settings

        stored = await change_on_a(replicas, "config difficulty hard")
        assert stored.difficulty is Difficulty.HARD

        for _ in range(2):
            await command(b, "now")
            round_ = await latest_round(b)
            question = b.engine.question_for(CHANNEL, round_.question_id)
            assert question is not None and question.id == "gpu-hard", (
                "replica b asked a question of any difficulty after replica a set hard"
            )
            clock_step(b)


def clock_step(service: QuizService) -> None:
    """Two `/quiz now` a moment apart are two rounds."""
    clock = service.engine.clock
    assert isinstance(clock, FakeClock)
    clock.advance(seconds=1)


async def test_a_channel_set_up_on_one_replica_is_scheduled_on_the_other() -> None:
    async with two_replicas(background=True) as r:
        await command(r.a, "schedule daily 07:15 UTC")  # the channel's first command
        stored = await stored_channel(r.a)
        await heard(r.b, stored)
        assert next_slot_on(r.b, stored.id) == datetime(2031, 1, 15, 7, 15, tzinfo=UTC)


async def test_an_admin_command_on_a_replica_that_missed_a_change_keeps_that_change() -> None:
    """Each admin command saves all of a channel's settings: one built on settings a replica
    kept from before another replica's change would undo that change."""
    async with two_replicas(background=False, before_b=("now",)) as replicas:
        a, b = replicas.a, replicas.b
        await command(b, "stats")  # b has read the channel's settings
        await sync_of(b).stop()  # and hears of no change from now on
        await command(a, "config reveal-emoji 🔍")

        await command(b, "pause")

        stored = await stored_channel(a)
        assert stored.paused
        assert stored.reveal_emoji == "🔍", "replica b's pause undid the reveal emoji a set"


async def test_a_change_made_while_the_listener_was_down_arrives_with_the_reconciliation(
    caplog: pytest.LogCaptureFixture,
) -> None:
    before = ("schedule weekdays 09:30 UTC",)
    async with two_replicas(background=True, before_b=before) as replicas:
        a, b = replicas.a, replicas.b
        channel = await stored_channel(a)
        with caplog.at_level(logging.WARNING, logger="bot.channel_sync"):
            await drop_listener(replicas)
            await command(a, "pause")  # its notice is lost
            assert next_slot_on(b, channel.id) is not None  # b does not know yet

            assert await sync_of(b).reconcile() == 1  # the minute's check: listens again too
        assert next_slot_on(b, channel.id) is None
        assert sync_of(b).listening
        [warning] = [r for r in caplog.records if r.name == "bot.channel_sync"]
        assert "lost the connection" in warning.getMessage()

        await change_on_a(replicas, "resume")  # heard as it happens again
        assert next_slot_on(b, channel.id) == datetime(2031, 1, 15, 9, 30, tzinfo=UTC)
        assert await sync_of(b).reconcile() <= 1  # only what the notice brought, if anything
        assert await sync_of(b).reconcile() == 0


async def test_a_replica_that_cannot_listen_warns_once_without_the_password_and_reconciles(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def unreachable_listener(store: PostgresStore) -> None:
        secret_url = "postgresql://quizbot:hunter2@127.0.0.1:1/quizbot"
        store.changes.listener_connect = functools.partial(asyncpg.connect, secret_url, timeout=2)

    with caplog.at_level(logging.DEBUG):
        async with two_replicas(
            background=True,
            before_b=("schedule weekdays 09:30 UTC",),
            setup_b=unreachable_listener,
        ) as replicas:
            a, b = replicas.a, replicas.b
            channel = await stored_channel(a)
            assert not sync_of(b).listening
            await command(a, "pause")

            assert await sync_of(b).reconcile() == 1
            assert next_slot_on(b, channel.id) is None
            await command(b, "stats")  # b still answers
    warnings = [r for r in caplog.records if r.name == "bot.channel_sync"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]  # not again at the check
    assert "cannot listen for channel changes" in warnings[0].getMessage()
    assert "hunter2" not in caplog.text


async def test_stopping_a_replica_closes_its_listener(caplog: pytest.LogCaptureFixture) -> None:
    async with two_replicas(background=True) as replicas:
        assert sync_of(replicas.b).listening
        assert len(await listener_backends(replicas.url, replicas.b_name)) == 1
        with caplog.at_level(logging.WARNING):
            await replicas.b.stop()
        assert not sync_of(replicas.b).listening
        assert not caplog.records  # closing is no lost connection
        for _ in range(100):  # the server ends the backend just after the client hung up
            if not await listener_backends(replicas.url, replicas.b_name):
                return
            await asyncio.sleep(0.01)
        raise AssertionError("b's listening connection is still open after stop")
