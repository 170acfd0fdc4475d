"""The core's Metrics port on prometheus_client, on a registry of its own.

Counters and the send-latency histogram are updated as the core calls the
port; the outbox gauges are read from the store (:meth:`PrometheusMetrics.refresh`), so
they are right after a restart too, but at most once every ``REFRESH_EVERY``: a scrape in
between, however many come, serves the figures last read and costs the database nothing.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot.kernel.clock import Clock, SystemClock
from bot.outbox.store import OutboxStore

log = logging.getLogger(__name__)

NAMESPACE = "quizbot"
# Platform calls take tens of milliseconds; rate-limit waits take seconds.
LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
METRICS_CONTENT_TYPE = CONTENT_TYPE_LATEST
# How old the outbox gauges may be: the database is asked at most this often for them.
REFRESH_EVERY = timedelta(seconds=5)
# A scrape waits at most this long for the database, then serves the last figures.
REFRESH_TIMEOUT = 2.0


@dataclass(frozen=True, slots=True)
class OutboxCounts:
    """Outbox actions by state, for the gauges."""

    pending: int
    failed: int


async def outbox_counts(outbox: OutboxStore) -> OutboxCounts:
    """Pending and failed outbox actions over every channel."""
    by_state = await outbox.outbox_counts()
    return OutboxCounts(by_state.get("pending", 0), by_state.get("failed", 0))


class PrometheusMetrics:
    """Implements ``bot.kernel.metrics.Metrics``; ``registry`` is what ``/metrics`` exposes."""

    def __init__(
        self,
        outbox: OutboxStore | None = None,
        *,
        clock: Clock | None = None,
        refresh_every: timedelta = REFRESH_EVERY,
        refresh_timeout: float = REFRESH_TIMEOUT,
    ) -> None:
        self.outbox = outbox
        self._clock = clock or SystemClock()
        self._refresh_every = refresh_every
        self._refresh_timeout = refresh_timeout
        self._read_at: datetime | None = None
        self._reading = asyncio.Lock()  # concurrent scrapes wait for the one read
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
        self.coach_requests = Counter(
            "coach_requests",
            "Answers the coach read, by outcome (answered, cached: no request, failed: an "
            "attempt the outbox retries, refused, malformed, over_budget: no request).",
            ["outcome"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self.coach_tokens_spent = Counter(
            "coach_tokens",
            "Tokens the coach's endpoint counted for its replies.",
            namespace=NAMESPACE,
            registry=registry,
        )
        self.coach_dropped_ticks = Counter(
            "coach_dropped_ticks",
            "Ticks the coach proposed that the verification dropped, by reason.",
            ["reason"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self.coach_decisions = Counter(
            "coach_decisions",
            "What members did with the coach's cards (accepted as they were, edited, dismissed).",
            ["decision"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self.outbox_pending = Gauge(
            "outbox_pending",
            "Outbox actions waiting to be sent (read from the database at most every 5 s).",
            namespace=NAMESPACE,
            registry=registry,
        )
        self.outbox_failed = Gauge(
            "outbox_failed",
            "Outbox actions that gave up (read from the database at most every 5 s).",
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

    # the coach's (bot.coaching.metrics.CoachMetrics)

    def coach_request(self, outcome: str) -> None:
        self.coach_requests.labels(outcome).inc()

    def coach_tokens(self, tokens: int) -> None:
        self.coach_tokens_spent.inc(tokens)

    def coach_dropped(self, reason: str, count: int) -> None:
        self.coach_dropped_ticks.labels(reason).inc(count)

    def coach_decision(self, decision: str) -> None:
        self.coach_decisions.labels(decision).inc()

    # exposition

    async def refresh(self) -> None:
        """Read the outbox gauges from the store unless they were read (or tried) less than
        ``refresh_every`` ago; on failure keep the last values until the next try."""
        if self.outbox is None:
            return
        async with self._reading:
            now = self._clock.now()
            if self._read_at is not None and self._read_at <= now < self._read_at + (
                self._refresh_every
            ):
                return
            self._read_at = now
            try:
                counts = await asyncio.wait_for(outbox_counts(self.outbox), self._refresh_timeout)
            except Exception:
                log.warning("could not read outbox counts for /metrics", exc_info=True)
                return
        self.outbox_pending.set(counts.pending)
        self.outbox_failed.set(counts.failed)

    async def exposition(self) -> bytes:
        """The Prometheus text format, with the outbox gauges at most ``refresh_every`` old."""
        await self.refresh()
        return generate_latest(self.registry)
