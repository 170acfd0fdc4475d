"""/metrics shows what the core counted during a real round, in Prometheus text format."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from adapters.ops.health import start_health_server
from adapters.ops.metrics import PrometheusMetrics
from bot.kernel.config import QuizConfig
from bot.kernel.errors import PlatformError
from bot.store import Store
from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness, running_service


@pytest.fixture
async def measured(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, config: QuizConfig
) -> AsyncIterator[tuple[QuizHarness, PrometheusMetrics]]:
    made: list[PrometheusMetrics] = []

    def metrics_for(store: Store) -> PrometheusMetrics:
        made.append(PrometheusMetrics(store.outbox, clock=clock))
        return made[0]

    async with running_service(
        db_path, [platform], clock, catalog, config, metrics=metrics_for
    ) as service:
        yield QuizHarness(service, platform, clock), made[0]


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(
    found: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return found[(name, frozenset(labels.items()))]


async def scrape(metrics: PrometheusMetrics) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return samples((await metrics.exposition()).decode())


async def test_a_round_shows_up_in_the_counters_and_the_outbox_gauges(
    measured: tuple[QuizHarness, PrometheusMetrics],
) -> None:
    quiz, metrics = measured
    quiz.platform.failures.append(PlatformError("boom"))
    await quiz.command("now")
    # the question post failed once and waits for its retry
    first = await scrape(metrics)
    assert value(first, "quizbot_outbox_pending") >= 1
    assert value(first, "quizbot_platform_errors_total", platform="fake", kind="error") == 1
    assert ("quizbot_rounds_posted_total", frozenset({("platform", "fake")})) not in first

    quiz.clock.advance(minutes=5)
    await quiz.service.settle()
    await quiz.answer("alice", "first answer", event_id="dup-1")
    await quiz.answer("alice", "first answer", event_id="dup-1")  # a redelivered event
    await quiz.answer("alice", "second thought")
    after = await scrape(metrics)
    assert value(after, "quizbot_rounds_posted_total", platform="fake") == 1
    assert value(after, "quizbot_answers_recorded_total", platform="fake", outcome="scored") == 1
    assert value(after, "quizbot_duplicate_events_total", platform="fake") == 1
    assert value(after, "quizbot_send_latency_seconds_count", platform="fake", kind="question") == 1
    assert value(after, "quizbot_outbox_pending") == 0
    assert value(after, "quizbot_outbox_failed") == 0


async def test_metrics_are_served_over_http_in_the_text_format(
    measured: tuple[QuizHarness, PrometheusMetrics],
) -> None:
    quiz, metrics = measured
    await quiz.command("now")
    server = await start_health_server(0, quiz.service.store.meta, [], metrics, host="127.0.0.1")
    try:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{server.port}/metrics") as response,
        ):
            assert response.status == 200
            assert response.headers["Content-Type"].startswith("text/plain; version=")
            text = await response.text()
    finally:
        await server.close()
    assert 'quizbot_rounds_posted_total{platform="fake"} 1.0' in text
    assert "# TYPE quizbot_send_latency_seconds histogram" in text
    assert "quizbot_outbox_pending 0.0" in text


def test_each_instance_has_its_own_registry() -> None:
    first, second = PrometheusMetrics(), PrometheusMetrics()
    first.round_posted("slack")
    labels = {"platform": "slack"}
    assert first.registry.get_sample_value("quizbot_rounds_posted_total", labels) == 1
    assert second.registry.get_sample_value("quizbot_rounds_posted_total", labels) is None
