"""A retention pass over a long history (the first run after an upgrade or a copy: a year of
done outbox actions and event ids to delete) leaves the store to the bot's own work: it
deletes in small batches and pauses after each, so the store spends at most a fifth of the
pass pruning. Before, one batch followed the next with only a yield in between, and each
of a reveal's store calls waited behind a batch: p99 100 ms on such a first run, 2 ms after
a restart (nothing left to prune)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.kernel.models import PruneBatch
from bot.outbox.retention import Retention
from tests.fakes import FakeClock

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
BATCH_SECONDS = 0.010  # what each batch keeps the store busy for


class Timeline:
    """A monotonic clock that moves while a batch deletes and while retention pauses."""

    def __init__(self) -> None:
        self.now = 0.0
        self.busy = 0.0
        self.paused = 0.0

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.paused += seconds


class LongHistory:
    """The store's two prune calls over ``rows`` old rows each, every batch taking
    BATCH_SECONDS on the timeline."""

    def __init__(self, timeline: Timeline, rows: int) -> None:
        self._timeline = timeline
        self.left = {"actions": rows, "events": rows}
        self.limits: list[int] = []

    def _batch(self, table: str, limit: int) -> PruneBatch:
        self.limits.append(limit)
        self._timeline.now += BATCH_SECONDS
        self._timeline.busy += BATCH_SECONDS
        deleted = min(limit, self.left[table])
        self.left[table] -= deleted
        return PruneBatch(deleted=deleted, more=deleted == limit)

    async def prune_done_actions(self, before: datetime, limit: int) -> PruneBatch:
        return self._batch("actions", limit)

    async def prune_events(self, before: datetime, limit: int) -> PruneBatch:
        return self._batch("events", limit)


async def test_a_long_pass_keeps_the_store_busy_at_most_a_fifth_of_the_time() -> None:
    timeline = Timeline()
    store = LongHistory(timeline, rows=20_000)
    retention = Retention(
        store,  # type: ignore[arg-type]  # only the two prune calls are used
        store,  # type: ignore[arg-type]
        FakeClock(NOW),
        monotonic=timeline.monotonic,
        sleep=timeline.sleep,
    )
    pruned = await retention.prune()
    assert (pruned.actions, pruned.events) == (20_000, 20_000)
    assert store.left == {"actions": 0, "events": 0}
    share = timeline.busy / timeline.now
    # (the last batch of each table is not followed by a pause)
    assert share < 0.21, f"the store pruned {share:.0%} of the pass"
    assert max(store.limits) <= 25  # each batch short: a reveal waits behind one at most


async def test_a_short_pass_does_not_pause() -> None:
    timeline = Timeline()
    store = LongHistory(timeline, rows=20)  # an hour's worth: one batch each
    retention = Retention(
        store,  # type: ignore[arg-type]
        store,  # type: ignore[arg-type]
        FakeClock(NOW),
        monotonic=timeline.monotonic,
        sleep=timeline.sleep,
    )
    pruned = await retention.prune()
    assert (pruned.actions, pruned.events) == (20, 20)
    assert timeline.paused == 0
