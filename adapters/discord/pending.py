"""Inbound Discord events the store could not record, kept in memory and retried.

Slack redelivers an event that was not acknowledged; Discord never does. So
when the core raises :class:`~bot.kernel.errors.NotRecorded` for an answer, edit or
reaction, the event is kept here and retried in arrival order, with
exponential backoff, until the store accepts it. While events are kept, new
ones queue behind them, so an edit never overtakes its answer.

The memory is bounded (``limit`` events, 10,000 by default: about an hour of
answers from a busy server at a few kilobytes each). When it is full the
oldest kept event is dropped, with a log line. Kept events are lost if the
process stops before the store heals; that is logged too.

A retried event counts once: the core drops a second delivery of an event id
(``processed_events``), and an event id already kept is not kept twice (a
gateway replay or the reconciler may deliver it again meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable

from bot.kernel.errors import NotRecorded
from bot.kernel.events import Event
from bot.kernel.runtime import EventHandler

log = logging.getLogger(__name__)

DEFAULT_LIMIT = 10_000
FIRST_DELAY_SECONDS = 0.5
MAX_DELAY_SECONDS = 30.0

Sleep = Callable[[float], Awaitable[None]]


class PendingEvents:
    """Deliver events to ``handler``; keep and retry those it could not record."""

    def __init__(
        self,
        handler: EventHandler,
        *,
        limit: int = DEFAULT_LIMIT,
        first_delay: float = FIRST_DELAY_SECONDS,
        max_delay: float = MAX_DELAY_SECONDS,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if limit < 1:
            raise ValueError("the pending-event limit must be at least 1")
        self._handler = handler
        self._limit = limit
        self._first_delay = first_delay
        self._max_delay = max_delay
        self._sleep = sleep
        self._queue: deque[Event] = deque()
        self._ids: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        self._since = 0.0
        self._dropped = 0

    def __len__(self) -> int:
        return len(self._ids)

    @property
    def dropped(self) -> int:
        """Events dropped because the memory was full (since the last recovery)."""
        return self._dropped

    async def deliver(self, event: Event) -> None:
        """Hand ``event`` to the handler now, or keep it when it cannot be recorded."""
        if self._ids:
            self._keep(event, None)
            return
        try:
            await self._handler(event)
        except NotRecorded as problem:
            self._keep(event, problem)

    def _keep(self, event: Event, problem: NotRecorded | None) -> None:
        if event.event_id in self._ids:
            return
        if not self._ids:
            self._since = time.monotonic()
            log.warning(
                "could not record Discord %s %s (%s); keeping it in memory and retrying",
                type(event).__name__,
                event.event_id,
                _cause(problem),
            )
        self._queue.append(event)
        self._ids.add(event.event_id)
        self._trim()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._retry(), name="discord-pending-events")

    def _trim(self) -> None:
        while len(self._queue) > self._limit:
            oldest = self._queue.popleft()
            self._ids.discard(oldest.event_id)
            self._dropped += 1
            if self._dropped == 1:
                log.error(
                    "%d Discord events are waiting for the store, the most kept in memory: "
                    "dropping the oldest (%s %s); further drops are counted",
                    self._limit,
                    type(oldest).__name__,
                    oldest.event_id,
                )

    async def _retry(self) -> None:
        delay = self._first_delay
        recorded = 0
        while self._queue:
            event = self._queue.popleft()
            try:
                await self._handler(event)
            except NotRecorded:
                self._queue.appendleft(event)
                self._trim()
                await self._sleep(delay)
                delay = min(delay * 2, self._max_delay)
                continue
            except Exception:
                log.exception("a kept Discord event failed for another reason; dropped")
            self._ids.discard(event.event_id)
            recorded += 1
            delay = self._first_delay
        log.warning(
            "the store accepts Discord events again: %d kept event(s) recorded after %.1f s, "
            "%d dropped",
            recorded,
            time.monotonic() - self._since,
            self._dropped,
        )
        self._dropped = 0

    async def close(self) -> None:
        """Stop retrying; kept events are lost (and said so)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._task = None
        if self._ids:
            log.error(
                "stopping with %d Discord event(s) the store never accepted: they are lost",
                len(self._ids),
            )
        self._queue.clear()
        self._ids.clear()


def _cause(problem: NotRecorded | None) -> str:
    if problem is None:
        return "the store is failing"
    cause = problem.__cause__
    return f"{type(cause).__name__}: {cause}" if cause is not None else str(problem)
