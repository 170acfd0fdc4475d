"""Workspace-level pacing of posts: Slack limits chat.postMessage per workspace too.

Besides about one message per second per channel (``ChannelPacer``), Slack keeps a
workspace-wide limit on posting. A fan-out at a slot (every channel posting at
once) would run into it and get ``429``s. The posts of the workspace therefore
start at most ``rate`` per second, evenly spaced, so no one-second window holds
more than the limit. Slack does not publish that limit, so a ``429`` also holds
every post for its ``Retry-After`` and lowers the rate; successes raise it
again, slowly, up to the configured rate. Replicas posting to the same workspaces
each pace at their share of the rate (``QUIZBOT_SLACK_REPLICAS``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

POST_METHOD = "chat.postMessage"
DEFAULT_RETRY_AFTER = 1.0
DEFAULT_POSTS_PER_SECOND = 9.0
MIN_POSTS_PER_SECOND = 0.5
SLOWDOWN = 0.8  # the rate after a 429, relative to the rate before it
SPEEDUP = 0.01  # posts per second regained per successful post


def replica_share(rate: float | None, replicas: int) -> float | None:
    """One process's post rate for a workspace that ``replicas`` processes post to: they
    split the workspace's limit, so together they start no more posts than one would."""
    if replicas < 1:
        raise ValueError("the number of replicas must be at least 1")
    return None if rate is None else rate / replicas


class WorkspacePacer:
    """Starts a workspace's posts at most ``rate`` per second, evenly spaced."""

    def __init__(
        self,
        rate: float | None = DEFAULT_POSTS_PER_SECOND,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if rate is not None and rate <= 0:
            raise ValueError("the workspace post rate must be positive (or None: unpaced)")
        self._max_rate = rate
        self._rate = rate
        self._monotonic = monotonic
        self._sleep = sleep
        self._next_start = 0.0
        self._held_until = 0.0
        self._turns = asyncio.Lock()  # first come, first served

    @property
    def rate(self) -> float | None:
        return self._rate

    async def turn(self) -> None:
        """Wait for this post's start: posts start one by one, in order, ``1 / rate``
        apart at the rate of the moment, and none while a 429 holds the workspace."""
        if self._rate is None:
            return
        async with self._turns:
            while (wait := max(self._next_start, self._held_until) - self._monotonic()) > 0:
                await self._sleep(wait)
            self._next_start = self._monotonic() + 1.0 / self._rate

    def hold(self, seconds: float) -> None:
        """A 429: no post of the workspace starts for ``seconds``, and the rate drops
        (once per hold: the posts already under way when the limit was hit get 429s
        too, and they say nothing new about it)."""
        if self._rate is None:
            return
        now = self._monotonic()
        if now >= self._held_until:
            self._rate = max(MIN_POSTS_PER_SECOND, self._rate * SLOWDOWN)
        self._held_until = max(self._held_until, now + seconds)

    def succeeded(self) -> None:
        if self._rate is not None and self._max_rate is not None:
            self._rate = min(self._max_rate, self._rate + SPEEDUP)


class PacedRateLimitRetryHandler(AsyncRateLimitErrorRetryHandler):
    """The SDK's retry after a 429 (it waits Retry-After and tries once more); a 429
    to a post also holds every other post of the workspace for that long."""

    def __init__(self, pacer: WorkspacePacer, *, max_retry_count: int = 1) -> None:
        super().__init__(max_retry_count=max_retry_count)
        self._pacer = pacer

    async def prepare_for_next_attempt_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> None:
        if response is not None and request.url.endswith(POST_METHOD):
            self._pacer.hold(retry_after(response.headers))
        await super().prepare_for_next_attempt_async(
            state=state, request=request, response=response, error=error
        )


def retry_after(headers: Mapping[str, Any]) -> float:
    """Slack's Retry-After (seconds) from response headers; 1 s when absent or odd."""
    for name, value in headers.items():
        if name.lower() == "retry-after":
            raw = value[0] if isinstance(value, list | tuple) and value else value
            try:
                return max(0.0, float(raw))
            except (TypeError, ValueError):
                break
    return DEFAULT_RETRY_AFTER
