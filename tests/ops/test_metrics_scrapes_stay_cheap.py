"""A scrape of ``/metrics`` reads the outbox gauges from a cache: the store is asked at most
once every ``REFRESH_EVERY`` of the injected clock, however many scrapes come (several
Prometheus servers, a dashboard refreshing), and a store that fails or hangs is not asked
again at once; the counters are always current."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import aiohttp
import pytest

from adapters.ops.health import start_health_server
from adapters.ops.metrics import REFRESH_EVERY, PrometheusMetrics
from tests.fakes import FakeClock
from tests.ops.test_metrics import scrape, value

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


class CountedStore:
    """The store as /metrics uses it: only ``outbox_counts``, counted."""

    def __init__(self) -> None:
        self.queries = 0
        self.pending = 3
        self.failure: Exception | None = None
        self.hang = False

    async def outbox_counts(self) -> dict[str, int]:
        self.queries += 1
        if self.hang:
            await asyncio.Event().wait()
        if self.failure is not None:
            raise self.failure
        return {"pending": self.pending, "failed": 1, "done": 40}

    async def get_meta(self, key: str) -> str | None:
        return None


async def test_scrapes_read_the_outbox_from_the_store_at_most_every_few_seconds() -> None:
    store, clock = CountedStore(), FakeClock(START)
    metrics = PrometheusMetrics(store, clock=clock)  # type: ignore[arg-type]
    scraped = await asyncio.gather(*(scrape(metrics) for _ in range(50)))
    assert store.queries == 1
    assert {value(s, "quizbot_outbox_pending") for s in scraped} == {3}  # none saw no figure

    store.pending = 7
    metrics.round_posted("slack")
    clock.advance(seconds=REFRESH_EVERY.total_seconds() - 1)
    cached = await scrape(metrics)
    assert store.queries == 1
    assert value(cached, "quizbot_outbox_pending") == 3
    assert value(cached, "quizbot_rounds_posted_total", platform="slack") == 1  # counters: live

    clock.advance(seconds=1)
    assert value(await scrape(metrics), "quizbot_outbox_pending") == 7
    assert store.queries == 2
    clock.set(START)  # the wall clock was set back: the figures are not frozen until then
    await scrape(metrics)
    assert store.queries == 3


async def test_a_failing_or_hanging_store_keeps_the_last_figures_and_is_not_hammered(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store, clock = CountedStore(), FakeClock(START)
    metrics = PrometheusMetrics(store, clock=clock, refresh_timeout=0.05)  # type: ignore[arg-type]
    await scrape(metrics)
    store.failure = OSError("disk gone")
    clock.advance(seconds=REFRESH_EVERY.total_seconds())
    for _ in range(10):
        assert value(await scrape(metrics), "quizbot_outbox_pending") == 3
    assert store.queries == 2
    assert "could not read outbox counts for /metrics" in caplog.text

    store.failure, store.hang = None, True
    clock.advance(seconds=REFRESH_EVERY.total_seconds())
    scraped = await asyncio.wait_for(scrape(metrics), 10)
    assert value(scraped, "quizbot_outbox_pending") == 3
    assert store.queries == 3


async def test_scrapes_over_http_ask_the_store_once() -> None:
    store, clock = CountedStore(), FakeClock(START)
    metrics = PrometheusMetrics(store, clock=clock)  # type: ignore[arg-type]
    server = await start_health_server(0, store, [], metrics)  # type: ignore[arg-type]
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(20):
                url = f"http://127.0.0.1:{server.port}/metrics"
                async with session.get(url) as response:
                    assert response.status == 200
                    assert "quizbot_outbox_pending 3.0" in await response.text()
    finally:
        await server.close()
    assert store.queries == 1
