"""Firing one slot for many channels the way the running bot does: through the
scheduler's job for their (schedule, timezone), on a clock the bench moves to the slot.

The channels are all on ``daily 09:00`` UTC. The service starts on a clock just
before tomorrow's 09:00 (nothing is due, nothing is caught up), then the clock
jumps to the slot and the bench runs the APScheduler job the channels share,
as APScheduler would at that moment: the rounds are recorded channel after
channel while the outbox sends the first ones.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.kernel.config import QuizConfig
from bot.kernel.models import ChannelSettings
from bot.kernel.platform import Platform
from bot.service import QuizService
from questions.loader import load_catalog
from storage.sqlite.store import SqliteStore

SCHEDULE = "daily 09:00"
POLICIES = ("after_first_answer", "immediately", "with_reveal")


class SlotClock:
    """The wall clock shifted so that the bench decides when the slot comes."""

    def __init__(self, slot: datetime, before: timedelta = timedelta(seconds=30)) -> None:
        self.slot = slot
        self._offset = (slot - before) - datetime.now(UTC)

    def now(self) -> datetime:
        return datetime.now(UTC) + self._offset

    def jump(self, to: datetime) -> None:
        self._offset = to - datetime.now(UTC)


def next_slot_time() -> datetime:
    """Tomorrow's 09:00 UTC: a slot in the future of the real clock, so APScheduler's own
    timer never fires during a run."""
    today = datetime.now(UTC).replace(hour=9, minute=0, second=0, microsecond=0)
    return today + timedelta(days=1)


async def create_channels(path: Path, channels: int, policies: Sequence[str]) -> None:
    """A database with the project's migrations and ``channels`` Slack channels on
    :data:`SCHEDULE`, each with a follow-up policy drawn (seeded) from ``policies``."""
    async with SqliteStore.open(path):
        pass
    rng = random.Random(channels)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO channels (platform, workspace, channel, timezone, schedule,"
            " reveal_emoji, reveal_min_reactors, followup_policy, grace_hours)"
            " VALUES ('slack', 'T1', ?, 'UTC', ?, '💡', 1, ?, 6)",
            ((f"C{c:06d}", SCHEDULE, rng.choice(policies)) for c in range(channels)),
        )
        conn.execute("COMMIT")


def fire_slot(service: QuizService, clock: SlotClock, channel_id: int) -> asyncio.Task[None]:
    """Move the clock to the slot and run the scheduler job ``channel_id`` shares with
    every channel on its schedule, as APScheduler runs it at the slot."""
    job = service.scheduler.job_for(channel_id) if service.scheduler is not None else None
    if job is None:
        raise RuntimeError("the channel has no scheduler job (is the service in the background?)")
    clock.jump(clock.slot + timedelta(milliseconds=100))
    return asyncio.create_task(job.func(*job.args))


@asynccontextmanager
async def service_before_the_slot(
    path: Path, platform: Platform, clock: SlotClock
) -> AsyncIterator[tuple[QuizService, list[ChannelSettings], int]]:
    """The service started in the background on ``clock`` (before the slot), its channels,
    and how many calls the slot hands the platform: question, thread and hint per channel,
    plus the follow-ups of the channels that post them immediately."""
    async with SqliteStore.open(path) as store:
        service = QuizService(
            store=store,
            platforms={"slack": platform},
            catalog=load_catalog(),
            clock=clock,
            config=QuizConfig(),
            background=True,
        )
        await service.start()
        try:
            channels = await store.channels.list_channels()
            immediate = sum(1 for c in channels if c.followup_policy.value == "immediately")
            yield service, channels, 3 * len(channels) + immediate
        finally:
            await service.stop()
