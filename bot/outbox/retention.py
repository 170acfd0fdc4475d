"""Retention: old completed outbox actions and old inbound event ids are deleted.

Both tables would otherwise grow by every round and every event for as long as
the bot runs. A background task deletes, once an hour and in small batches, and
pauses after each batch of a long pass so that pruning keeps the store busy at
most a fifth of the time (``BUSY_SHARE``): the first pass over a year of history
(after an upgrade or ``quizbot db copy``) is a few million rows, and with batches
back to back each store call of a reveal waited behind one (p99 100 ms):

* outbox actions completed more than ``outbox_retention`` ago (30 days by
  default) whose round is closed. A follow-ups action of a round that was never
  revealed stays, since its key is what stops the reveal from posting the
  follow-ups a second time; failed actions stay for the operator to see.
* ``processed_events`` rows recorded more than ``event_retention`` ago (7 days by
  default). They only drop redeliveries, which come within minutes: Slack retries
  an event 3 times within about 5 minutes, and Discord replays what a gateway
  session missed when it resumes. The Discord catch-up after downtime replays
  the messages of open rounds, which older event ids would not be needed for:
  answers, votes and reveal reactions are each unique in their own tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

from bot.kernel.clock import Clock
from bot.kernel.stores import DeliveryStore
from bot.outbox.store import OutboxStore

log = logging.getLogger(__name__)

DEFAULT_OUTBOX_RETENTION = timedelta(days=30)
DEFAULT_EVENT_RETENTION = timedelta(days=7)
PASS_INTERVAL = timedelta(hours=1)
BATCH = 25  # about half a millisecond of the store's time: what a reveal may wait behind
BUSY_SHARE = 0.2  # of a long pass's time, the store prunes at most this share


@dataclass(frozen=True, slots=True)
class Pruned:
    """How many outbox actions and event ids one retention pass deleted."""

    actions: int
    events: int


class Retention:
    """Deletes old completed outbox actions and old event ids, in small batches."""

    def __init__(
        self,
        outbox: OutboxStore,
        deliveries: DeliveryStore,
        clock: Clock,
        *,
        outbox_retention: timedelta = DEFAULT_OUTBOX_RETENTION,
        event_retention: timedelta = DEFAULT_EVENT_RETENTION,
        batch: int = BATCH,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._outbox = outbox
        self._deliveries = deliveries
        self._clock = clock
        self._outbox_retention = outbox_retention
        self._event_retention = event_retention
        self._batch = batch
        self._monotonic = monotonic
        self._sleep = sleep

    async def prune(self, stopping: asyncio.Event | None = None) -> Pruned:
        """One full pass over both tables (cut short when ``stopping`` is set)."""
        now = self._clock.now()
        actions = events = 0

        def go_on(more: bool) -> bool:
            return more and not (stopping is not None and stopping.is_set())

        more = True
        while go_on(more):
            started = self._monotonic()
            batch = await self._outbox.prune_done_actions(now - self._outbox_retention, self._batch)
            actions, more = actions + batch.deleted, batch.more
            await self._pause(started, more)
        more = True
        while go_on(more):
            started = self._monotonic()
            batch = await self._deliveries.prune_events(now - self._event_retention, self._batch)
            events, more = events + batch.deleted, batch.more
            await self._pause(started, more)
        if actions or events:
            log.info("retention: deleted %d old outbox actions and %d event ids", actions, events)
        return Pruned(actions, events)

    async def _pause(self, started: float, more: bool) -> None:
        """After a batch: with more to delete, leave the store to other work for four
        times as long as the batch took; else only yield (the store's lock goes to
        waiting work)."""
        if not more:
            await asyncio.sleep(0)
            return
        busy = self._monotonic() - started
        await self._sleep(busy * (1 - BUSY_SHARE) / BUSY_SHARE)

    async def run(self, stopping: asyncio.Event, interval: timedelta = PASS_INTERVAL) -> None:
        """Prune now and then every ``interval`` until ``stopping`` is set."""
        while not stopping.is_set():
            try:
                await self.prune(stopping)
            except Exception:
                log.exception("retention pass failed; trying again later")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), interval.total_seconds())
