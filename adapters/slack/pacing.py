"""Per-channel pacing of posts: Slack allows about one message per second per channel.

Posting faster gets ``ratelimited`` answers; spacing the posts of one channel
avoids them while posts to different channels go out side by side.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

DEFAULT_INTERVAL = 1.0


class ChannelPacer:
    """Spaces the start of posts to one channel at least ``interval`` seconds apart."""

    def __init__(
        self,
        interval: float = DEFAULT_INTERVAL,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if interval < 0:
            raise ValueError("pacing interval must not be negative")
        self._interval = interval
        self._monotonic = monotonic
        self._sleep = sleep
        self._next_slot: dict[str, float] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def delay(self, channel: str) -> float:
        """Seconds until a post to the channel would start without waiting (a post under
        way counts a whole interval: the next starts that long after it ends)."""
        lock = self._locks.get(channel)
        if lock is not None and lock.locked():
            return self._interval
        return max(0.0, self._next_slot.get(channel, 0.0) - self._monotonic())

    @asynccontextmanager
    async def slot(self, channel: str) -> AsyncIterator[None]:
        """Wait for the channel's next slot, then hold it while the post is made."""
        lock = self._locks.setdefault(channel, asyncio.Lock())
        async with lock:
            wait = self._next_slot.get(channel, 0.0) - self._monotonic()
            if wait > 0:
                await self._sleep(wait)
            try:
                yield
            finally:
                self._next_slot[channel] = self._monotonic() + self._interval
