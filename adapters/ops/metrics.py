"""The core's Metrics port on prometheus_client, on a registry of its own.

Counters and the send-latency histogram are updated as the core calls the
port; the outbox gauges are read from the store when ``/metrics`` is scraped
(:meth:`PrometheusMetrics.refresh`), so they are right after a restart too.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot.ports import Store

log = logging.getLogger(__name__)

NAMESPACE = "quizbot"
# Platform calls take tens of milliseconds; rate-limit waits take seconds.
LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
METRICS_CONTENT_TYPE = CONTENT_TYPE_LATEST


@dataclass(frozen=True, slots=True)
class OutboxCounts:
    """Outbox actions by state, for the gauges."""

    pending: int
    failed: int


async def outbox_counts(store: Store) -> OutboxCounts:
    """Pending and failed outbox actions over every channel."""
    by_state = await store.outbox_counts()
    return OutboxCounts(by_state.get("pending", 0), by_state.get("failed", 0))


class PrometheusMetrics:
    """Implements ``bot.metrics.Metrics``; ``registry`` is what ``/metrics`` exposes."""

    def __init__(self, store: Store | None = None) -> None:
        self.store = store
        self.registry = CollectorRegistry()
        registry = self.registry
        self.rounds_posted = Counter(
            "rounds_posted",
            "Quiz rounds whose question was posted.",
            ["platform"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self.answers_recorded = Counter(
            "answers_recorded",
            "Answers recorded, by outcome (scored, kept, duplicate).",
            ["platform", "outcome"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self.duplicate_events = Counter(
            "duplicate_events",
            "Inbound events dropped because their event id was already processed.",
            ["platform"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self.platform_errors = Counter(
            "platform_errors",
            "Failed platform calls, by kind (rate_limited, channel_unavailable, error, gave_up).",
            ["platform", "kind"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self.send_latency = Histogram(
            "send_latency_seconds",
            "Latency of outbox actions performed on a platform, by action kind.",
            ["platform", "kind"],
            buckets=LATENCY_BUCKETS,
            namespace=NAMESPACE,
            registry=registry,
        )
        self.outbox_pending = Gauge(
            "outbox_pending",
            "Outbox actions waiting to be sent (read from the database at scrape time).",
            namespace=NAMESPACE,
            registry=registry,
        )
        self.outbox_failed = Gauge(
            "outbox_failed",
            "Outbox actions that gave up (read from the database at scrape time).",
            namespace=NAMESPACE,
            registry=registry,
        )

    # the Metrics port

    def round_posted(self, platform: str) -> None:
        self.rounds_posted.labels(platform).inc()

    def answer_recorded(self, platform: str, outcome: str) -> None:
        self.answers_recorded.labels(platform, outcome).inc()

    def duplicate_event(self, platform: str) -> None:
        self.duplicate_events.labels(platform).inc()

    def action_sent(self, platform: str, kind: str, seconds: float) -> None:
        self.send_latency.labels(platform, kind).observe(seconds)

    def platform_error(self, platform: str, kind: str) -> None:
        self.platform_errors.labels(platform, kind).inc()

    # exposition

    async def refresh(self) -> None:
        """Read the outbox gauges from the store; on failure keep the last values."""
        if self.store is None:
            return
        try:
            counts = await outbox_counts(self.store)
        except Exception:
            log.warning("could not read outbox counts for /metrics", exc_info=True)
            return
        self.outbox_pending.set(counts.pending)
        self.outbox_failed.set(counts.failed)

    async def exposition(self) -> bytes:
        """The Prometheus text format, with the outbox gauges freshly read."""
        await self.refresh()
        return generate_latest(self.registry)
