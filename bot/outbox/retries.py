"""A failed attempt: retried later with backoff (longer when the platform asked), or given
up after the configured number of attempts."""

from __future__ import annotations

import logging
from datetime import timedelta

from bot.kernel.clock import Clock
from bot.kernel.config import QuizConfig
from bot.kernel.errors import PlatformError
from bot.kernel.metrics import Metrics
from bot.kernel.models import OutboxAction
from bot.outbox.store import OutboxStore

log = logging.getLogger("bot.outbox.worker")


class Retries:
    """Puts a failed action off by its backoff, or fails it for good."""

    def __init__(
        self, outbox: OutboxStore, clock: Clock, config: QuizConfig, metrics: Metrics
    ) -> None:
        self._outbox = outbox
        self._clock = clock
        self._config = config
        self._metrics = metrics

    async def retry_later(self, platform: str, action: OutboxAction, problem: Exception) -> None:
        now = self._clock.now()
        message = f"{type(problem).__name__}: {problem}"
        rate_limited = isinstance(problem, PlatformError) and problem.retry_after is not None
        self._metrics.platform_error(platform, "rate_limited" if rate_limited else "error")
        if action.attempts >= self._config.max_send_attempts:
            self._metrics.platform_error(platform, "gave_up")
            log.error(
                "giving up on %s after %d attempts: %s",
                action.key,
                action.attempts,
                message,
                extra={"platform": platform, "round": action.round_id},
            )
            await self._outbox.fail_action(action.id, message, now)
            return
        delay = min(
            self._config.first_retry_seconds * 2 ** (action.attempts - 1),
            self._config.max_retry_seconds,
        )
        if isinstance(problem, PlatformError) and problem.retry_after is not None:
            delay = max(delay, problem.retry_after)
        else:
            log.warning(
                "sending %s failed (attempt %d): %s",
                action.key,
                action.attempts,
                message,
                extra={"platform": platform, "round": action.round_id},
            )
        await self._outbox.retry_action(action.id, message, now + timedelta(seconds=delay), at=now)
