"""Discord fan-out: 200 channels due at the same slot, against a fake Discord that
enforces the global limit (50 requests in any second) and per-channel message buckets.

Two measurements, each run twice in one process: without client-side pacing
(discord.py alone, as before issue 9), then paced at ``--rate``.

1. The adapter fan-out (issue 9's set-up): one task per channel posts the
   question card and opens its thread through ``DiscordPlatform``, all at once.
   Floor: 2 requests per channel at the global limit.
2. The whole core: ``QuizService`` on a SQLite store starts every channel's
   round and its outbox sends question, thread and hint reaction
   (``send_concurrency`` rounds at a time, or as many as the platform asks).
   The time is to the last question and thread; the floor counts all 3
   requests per channel.

For each it prints the REST requests, how many were answered 429 and the time
from the slot to the last post against the floor. Discord answers each request
after ``--latency-ms`` (300 ms by default: a message create's round trip on a
slow day; 0 for the fake's immediate answers, as this bench ran before). Targets:
429s <= 1% of requests, time <= 1.3x the floor.

    PYTHONPATH=. python bench/discord_fanout.py [--channels 200] [--rate 45] [--global-limit 50]
                                   [--send-concurrency 8] [--latency-ms 300]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import tempfile
import time
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from adapters.unfinished_sends import UnfinishedSends
from bot.kernel.clock import SystemClock
from bot.kernel.config import QuizConfig
from bot.kernel.errors import PlatformError
from bot.kernel.events import Event
from bot.kernel.models import ChannelSettings, Round
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card, Response
from bot.service import QuizService
from questions.loader import load_catalog
from storage.sqlite.store import SqliteStore

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    from adapters.discord.connector import DiscordOptions, DiscordPlatform
    from adapters.discord.endpoint import restore_defaults
    from tests.discord.fake_discord import CHANNEL_ID, FakeDiscord

POSTS = r"/channels/\d+/messages"
THREADS = r"/channels/\d+/messages/\d+/threads"
GIVE_UP_SECONDS = 90.0
FIRST_RETRY_SECONDS = QuizConfig().first_retry_seconds
LATENCY = [0.3]  # seconds before the fake answers a request (--latency-ms)
T = TypeVar("T")


@dataclass
class Figures:
    label: str
    requests: int
    limited: int
    seconds: float
    posted: int
    every_request: float  # seconds until the last request was answered (the hints too)


@asynccontextmanager
async def discord_with(
    channels: int, rate: float | None, global_limit: int
) -> AsyncIterator[tuple[FakeDiscord, list[int], DiscordOptions]]:
    fake = FakeDiscord(global_limit=global_limit, channel_message_limit=5, latency=LATENCY[0])
    ids = [CHANNEL_ID + n for n in range(channels)]
    for channel_id in ids[1:]:
        fake.add_channel(channel_id, f"quiz-{channel_id - CHANNEL_ID}")
    await fake.start()
    options = DiscordOptions(
        token="bench-token",
        api_url=fake.base_url,
        guild_ready_timeout=0.05,
        requests_per_second=rate,
    )
    try:
        yield fake, ids, options
    finally:
        await fake.close()
        restore_defaults()


def figures(label: str, fake: FakeDiscord, first: int, limited: int, started: float) -> Figures:
    sent = fake.requests[first:]
    done = [r for r in sent if r.status == 200 and _is_post(r.method, r.path)]
    return Figures(
        label=label,
        requests=len(sent),
        limited=fake.rate_limited - limited,
        seconds=max((r.at for r in done), default=started) - started,
        posted=len(done),
        every_request=max((r.at for r in sent if r.status in (200, 204)), default=started)
        - started
        + fake.latency,
    )


async def adapter_fan_out(channels: int, rate: float | None, global_limit: int) -> Figures:
    async with discord_with(channels, rate, global_limit) as (fake, ids, options):
        platform = DiscordPlatform(options, topics=lambda: ["gpu"], store=_NoStore())
        await platform.start(_ignore)
        try:
            first, limited = len(fake.requests), fake.rate_limited
            started = time.monotonic()

            async def post_and_open(channel_id: int) -> None:
                channel = ChannelRef("discord", str(fake.guild_id), str(channel_id))
                key = f"round:{channel_id}"
                card = Card(title="Question", body="What limits all-reduce bandwidth?")
                question = await again(lambda: platform.post(channel, card, key=f"{key}:question"))
                await again(lambda: platform.open_thread(question, "Answers", key=f"{key}:thread"))

            results = await asyncio.gather(*(post_and_open(i) for i in ids), return_exceptions=True)
        finally:
            await platform.stop()
        failed = sum(isinstance(r, BaseException) for r in results)
        label = "paced" if rate is not None else "discord.py alone"
        return figures(
            f"{label}{f' ({failed} failed)' if failed else ''}", fake, first, limited, started
        )


async def core_fan_out(
    channels: int, rate: float | None, global_limit: int, concurrency: int
) -> Figures:
    catalog = load_catalog()
    async with discord_with(channels, rate, global_limit) as (fake, ids, options):
        with tempfile.TemporaryDirectory() as folder:
            async with SqliteStore.open(Path(folder) / "bench.db") as store:
                platform = DiscordPlatform(options, topics=catalog.topics, store=store)
                service = QuizService(
                    store=store,
                    platforms={"discord": platform},
                    catalog=catalog,
                    clock=SystemClock(),
                    config=QuizConfig(default_schedule=None, send_concurrency=concurrency),
                    rng=random.Random(7),
                    background=False,
                )
                await service.start()
                await platform.start(service.handle)
                try:
                    settings = [
                        await service.engine.create_channel(
                            ChannelRef("discord", str(fake.guild_id), str(channel_id))
                        )
                        for channel_id in ids
                    ]
                    first, limited = len(fake.requests), fake.rate_limited
                    slot = datetime.now(UTC).replace(microsecond=0)
                    started = time.monotonic()
                    await asyncio.gather(
                        *(
                            service.engine.start_round(channel, scheduled_for=slot, scheduled=True)
                            for channel in settings
                        )
                    )
                    await _until_posted(service, fake, channels, started)
                finally:
                    await platform.stop()
                    await service.stop()
        label = "paced" if rate is not None else "discord.py alone"
        return figures(label, fake, first, limited, started)


async def again(send: Callable[[], Awaitable[T]]) -> T:
    """Retry a failed send the way the outbox does: after the platform's hint, else
    after 2 s doubling (a give-up after 90 s keeps the bench finite)."""
    delay, deadline = FIRST_RETRY_SECONDS, time.monotonic() + GIVE_UP_SECONDS
    while True:
        try:
            return await send()
        except PlatformError as problem:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(max(delay, problem.retry_after or 0.0))
            delay *= 2


class _Nothing:
    """No command hash, no channels, no open rounds."""

    async def get_meta(self, key: str) -> str | None:
        return None

    async def set_meta(self, key: str, value: str) -> None:
        pass

    async def list_channels(self) -> list[ChannelSettings]:
        return []

    async def open_round(self, channel_id: int) -> Round | None:
        return None


@dataclass
class _NoStore:
    meta: _Nothing = field(default_factory=_Nothing)
    channels: _Nothing = field(default_factory=_Nothing)
    rounds: _Nothing = field(default_factory=_Nothing)
    unfinished_cards: UnfinishedSends = field(default_factory=UnfinishedSends)


async def _ignore(event: Event) -> Response | None:
    return None


def _is_post(method: str, path: str) -> bool:
    return method == "POST" and bool(re.fullmatch(POSTS, path) or re.fullmatch(THREADS, path))


async def _until_posted(
    service: QuizService, fake: FakeDiscord, channels: int, started: float
) -> None:
    """Run the outbox until every channel has its question, thread and hint (or give up)."""
    while time.monotonic() - started < GIVE_UP_SECONDS:
        await service.settle()
        posted = sum(1 for r in fake.requests if r.status == 200 and _is_post(r.method, r.path))
        hints = sum(1 for r in fake.requests if r.status == 204 and "/reactions/" in r.path)
        if posted >= 2 * channels and hints >= channels:
            return
        await asyncio.sleep(0.1)  # failed sends come back after the outbox's backoff


def report(figures: Figures, floor: float) -> None:
    share = figures.limited / figures.requests if figures.requests else 0.0
    print(
        f"{figures.label:>17}: {figures.requests:5d} requests, {figures.limited:5d} answered 429 "
        f"({share:6.1%}), question+thread posted in {figures.posted:4d} requests, "
        f"last after {figures.seconds:6.2f} s = {figures.seconds / floor:4.2f}x the floor;"
        f" every request answered after {figures.every_request:6.2f} s"
        f" = {figures.every_request / floor:4.2f}x its floor"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--rate", type=float, default=45.0, help="paced requests per second")
    parser.add_argument("--global-limit", type=int, default=50)
    parser.add_argument(
        "--send-concurrency", type=int, default=QuizConfig().send_concurrency, help="outbox rounds"
    )
    parser.add_argument("--latency-ms", type=float, default=300.0, help="Discord's round trip")
    args = parser.parse_args()
    LATENCY[0] = args.latency_ms / 1000
    logging.basicConfig(level=logging.CRITICAL)  # discord.py warns on every 429
    channels, limit = args.channels, args.global_limit
    floor = 2 * channels / limit
    print(
        f"{channels} channels at one slot; the fake Discord allows {limit} requests/s and"
        f" answers in {args.latency_ms:g} ms; paced at {args.rate:g}/s"
    )
    print(
        f"1. adapter: question + thread per channel, "
        f"floor 2 x {channels} / {limit}/s = {floor:.2f} s"
    )
    before = await adapter_fan_out(channels, None, limit)
    report(before, floor)
    after = await adapter_fan_out(channels, args.rate, limit)
    report(after, floor)
    met = after.limited <= 0.01 * after.requests and after.seconds <= 1.3 * floor
    print(f"   targets (429s <= 1% of requests, time <= 1.3x floor): {'met' if met else 'MISSED'}")
    core_floor = 3 * channels / limit
    print(
        f"2. core: question, thread, hint per channel, {args.send_concurrency} send slots set, "
        f"floor 3 x {channels} / {limit}/s = {core_floor:.2f} s"
    )
    for rate in (None, args.rate):
        core = await core_fan_out(channels, rate, limit, args.send_concurrency)
        report(core, core_floor)


if __name__ == "__main__":
    asyncio.run(main())
