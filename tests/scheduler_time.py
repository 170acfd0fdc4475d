"""Virtual time for the schedulers: APScheduler's own job processing, run on a FakeClock.

A QuizScheduler's slots are fired by an APScheduler job, and APScheduler decides what is
due, and what a job's next run is, by ``datetime.now`` in ``apscheduler.schedulers.base``.
Inside :func:`scheduler_time` that reads the fake clock, and :meth:`SchedulerTime.step`
moves the clock to the earliest next run of the schedulers' jobs and lets each scheduler
process its due jobs as its timer's wakeup does, then waits for the runs and the slot
fires they started. Nothing sleeps: days pass in as many steps as there are slots.

    with scheduler_time(clock, *schedulers_of(service), settle=service.settle) as time:
        await service.start()
        await time.run_until(clock.now() + timedelta(days=30))
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any
from unittest import mock

from apscheduler.schedulers import base as apscheduler_base
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.kernel.config import QuizConfig
from bot.scheduling.scheduler import QuizScheduler
from bot.service import QuizService
from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness
from tests.storage.backends import open_store

Settle = Callable[[], Awaitable[object]]


def schedulers_of(service: QuizService) -> tuple[QuizScheduler, ...]:
    """The service's schedulers (rounds, recaps, pairing, reminders); a service built
    without background work has none."""
    rounds = () if service.scheduler is None else (service.scheduler,)
    return (*rounds, *service.schedulers.values())


class SchedulerTime:
    """Steps a fake clock from one APScheduler run time to the next (see the module)."""

    def __init__(
        self, clock: FakeClock, schedulers: tuple[QuizScheduler, ...], settle: Settle | None
    ) -> None:
        self.clock = clock
        self.schedulers = schedulers
        self.settle = settle  # after each step (e.g. the service's outbox work due by then)

    def next_run_time(self) -> datetime | None:
        """The earliest next run of the schedulers' APScheduler jobs; None when none has one
        (no job, or every job waits paused)."""
        times = [
            job.next_run_time
            for scheduler in self.schedulers
            for job in _apscheduler(scheduler).get_jobs()
            if job.next_run_time is not None
        ]
        return min(times, default=None)

    async def step(self) -> datetime | None:
        """Move the clock to the next run time (not back) and run what is due then; that time,
        or None when no job has one. Raises when a job due then is due again afterwards
        (it would be stepped to forever)."""
        at = self.next_run_time()
        if at is None:
            return None
        if at > self.clock.now():
            self.clock.set(at)
        await self.process_due()
        after = self.next_run_time()
        if after is not None and after <= at:
            raise AssertionError(f"an APScheduler job due at {at} did not move on ({after})")
        return at

    async def run_until(self, moment: datetime) -> list[datetime]:
        """Step through every run time up to ``moment``, then set the clock to it (and run
        what is due); the run times stepped through."""
        stepped: list[datetime] = []
        while (at := self.next_run_time()) is not None and at <= moment:
            await self.step()
            stepped.append(at)
        if moment > self.clock.now():
            self.clock.set(moment)
        await self.process_due()
        return stepped

    async def process_due(self) -> None:
        """Each scheduler's wakeup, at the clock's time, then the work it started."""
        for scheduler in self.schedulers:
            aps = _apscheduler(scheduler)
            if aps.running:
                # the wakeup itself, run now rather than queued with call_soon_threadsafe
                AsyncIOScheduler.wakeup.__wrapped__(aps)
        await self.spawned_done()
        if self.settle is not None:
            await self.settle()

    async def spawned_done(self) -> None:
        """Wait for the job runs APScheduler started and the slot fires they started."""
        while pending := {
            task for scheduler in self.schedulers for task in _spawned(scheduler) if not task.done()
        }:
            await asyncio.wait(pending)


@contextmanager
def scheduler_time(
    clock: FakeClock, *schedulers: QuizScheduler, settle: Settle | None = None
) -> Iterator[SchedulerTime]:
    """APScheduler reads ``clock`` for as long as the block runs (start the schedulers
    inside it, so that their first wakeup already reads it)."""

    class ClockTime(datetime):
        @classmethod
        def now(cls, tz: tzinfo | None = None) -> Any:
            return clock.now().astimezone(tz)

    with mock.patch.object(apscheduler_base, "datetime", ClockTime):
        yield SchedulerTime(clock, schedulers, settle)


def _apscheduler(scheduler: QuizScheduler) -> AsyncIOScheduler:
    return scheduler._scheduler


def _spawned(scheduler: QuizScheduler) -> set[asyncio.Future[Any]]:
    aps = _apscheduler(scheduler)
    runs: set[asyncio.Future[Any]] = set()
    if aps.running:
        runs = set(aps._lookup_executor("default")._pending_futures)
    return runs | set(scheduler._in_flight)


@asynccontextmanager
async def staying_up(
    backend: str, tmp_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog
) -> AsyncIterator[tuple[QuizHarness, SchedulerTime]]:
    """A started quiz on one store backend with its schedulers on, APScheduler on the fake
    clock: a process that stays up, whose days pass by :class:`SchedulerTime`."""
    async with open_store(backend, tmp_path) as store:
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=catalog,
            clock=clock,
            config=QuizConfig(default_schedule=None),
            rng=random.Random(7),
            background=True,
        )
        with scheduler_time(clock, *schedulers_of(service), settle=service.settle) as time:
            await service.start()
            try:
                yield QuizHarness(service, platform, clock), time
            finally:
                await service.stop()
