"""Virtual time for whole running QuizServices and their members.

Three things come due in a running bot: the schedulers' APScheduler jobs (run on the fake
clock by ``tests.scheduler_time``), the outbox worker's next look (it sleeps until its
next action is due or an enqueue wakes it), and, in a test, what the members do (steps on
the agenda: a member answering at 09:20). The clock jumps to the earliest of the three;
the steps due run, APScheduler fires what is due, and each worker whose time came looks
again, until every worker sleeps and nothing else is due at that moment. No real sleep.

Each service's worker runs its own loop (``OutboxWorker.run``) with only the sleep made
virtual (:class:`VirtualWorkerLoop`): its passes, its wake-ups on enqueue and the time it
chooses to sleep until are the bot's own, so a pass that wrongly decides nothing is due
leaves the work undone here as it would in production. The idle bound is a day rather
than a minute: the soak shows every piece of work wakes the worker, without the safety
net of a look every minute.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time as wall_clock
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta

from bot.outbox.worker import RETRY_PASS_SECONDS, OutboxWorker
from bot.service import QuizService
from tests.fakes import FakeClock
from tests.scheduler_time import SchedulerTime

log = logging.getLogger(__name__)
Step = Callable[[], Awaitable[None]]
IDLE_SECONDS = 86_400.0
ROUNDS_PER_MOMENT = 50  # fire-and-look rounds at one moment before it counts as stuck
QUIET_SECONDS = 60.0  # real time the workers may take to finish what one moment brought


class VirtualWorkerLoop:
    """``OutboxWorker.run`` with its sleep on the fake clock: asleep until ``until`` (or
    an enqueue, or stopping), woken by :meth:`ring` when the clock gets there."""

    def __init__(self, worker: OutboxWorker, clock: FakeClock) -> None:
        self.worker = worker
        self.clock = clock
        self.until: datetime | None = None  # when it looks again by itself
        self.sleeping = asyncio.Event()
        self.failures: list[str] = []  # passes that raised (the worker logs and retries)
        self._alarm: asyncio.Future[object] | None = None

    async def run(self, stopping: asyncio.Event, idle_seconds: float = IDLE_SECONDS) -> None:
        wake = self.worker._wake
        while not stopping.is_set():
            wake.clear()
            try:
                delay = await self.worker.run_once(IDLE_SECONDS)
            except Exception as problem:
                log.exception("outbox pass failed; retrying")
                self.failures.append(f"{self.clock.now()}: {problem!r}")
                delay = RETRY_PASS_SECONDS
            if delay <= 0:
                await asyncio.sleep(0)
                continue
            self.until = self.clock.now() + timedelta(seconds=delay)
            self._alarm = alarm = asyncio.get_running_loop().create_future()
            waiters: list[asyncio.Future[object]] = [
                asyncio.ensure_future(wake.wait()),
                asyncio.ensure_future(stopping.wait()),
            ]
            self.sleeping.set()
            try:
                await asyncio.wait([*waiters, alarm], return_when=asyncio.FIRST_COMPLETED)
            finally:
                self.sleeping.clear()
                for waiter in waiters:
                    waiter.cancel()
                await asyncio.gather(*waiters, return_exceptions=True)

    @property
    def idle(self) -> bool:
        """Asleep, with no enqueue waiting to wake it."""
        return self.sleeping.is_set() and not self.worker._wake.is_set()

    def ring(self) -> bool:
        """Wake it if its time has come; whether it did."""
        if self._alarm is None or self._alarm.done() or self.until is None:
            return False
        if self.until > self.clock.now():
            return False
        self._alarm.set_result(None)
        self.sleeping.clear()  # awake from now, though its task has yet to run
        return True


class TimeMachine:
    """Moves ``time``'s clock from one due moment to the next over ``services`` (made with
    background work); build it before starting them, inside ``time``'s block."""

    def __init__(self, time: SchedulerTime, services: Sequence[QuizService]) -> None:
        self.time = time
        self.clock: FakeClock = time.clock
        self.services = list(services)
        self.loops = [VirtualWorkerLoop(s.outbox, self.clock) for s in self.services]
        for service, loop in zip(self.services, self.loops, strict=True):
            service.outbox.run = loop.run  # type: ignore[method-assign]
        self.moments = 0  # distinct moments the clock stopped at
        self.trace: list[tuple[datetime, float]] = []  # each moment, and the wall time then
        self._agenda: list[tuple[datetime, int, Step]] = []
        self._order = itertools.count()

    @property
    def failures(self) -> list[str]:
        return [failure for loop in self.loops for failure in loop.failures]

    def at(self, moment: datetime, step: Step) -> None:
        """Run ``step`` at ``moment``, before what the services have due then."""
        heapq.heappush(self._agenda, (moment, next(self._order), step))

    async def run_until(self, end: datetime) -> None:
        """Run every step and everything the services have due up to ``end`` (included),
        then leave the clock at ``end``."""
        while True:
            await self.settle()
            upcoming = [
                t
                for t in (self.time.next_run_time(), self._next_look(), self._next_step())
                if t is not None
            ]
            moment = min(upcoming, default=None)
            if moment is None or moment > end:
                break
            if moment <= self.clock.now():
                raise AssertionError(f"{moment} is due again at {self.clock.now()}")
            self.clock.set(moment)
            self.moments += 1
            self.trace.append((moment, wall_clock.perf_counter()))
            while self._agenda and self._agenda[0][0] <= moment:
                _, _, step = heapq.heappop(self._agenda)
                await step()
        self.clock.set(max(end, self.clock.now()))
        await self.settle()

    async def settle(self) -> None:
        """Fire what APScheduler holds due now and let each worker whose time came look,
        until all sleep and neither has anything left at this moment."""
        for _ in range(ROUNDS_PER_MOMENT):
            due = self.time.next_run_time()
            fired = due is not None and due <= self.clock.now()
            if fired:
                await self.time.process_due()
            rang = [loop.ring() for loop in self.loops]
            await self._quiet()
            if not fired and not any(rang):
                return
        raise AssertionError(f"still busy after {ROUNDS_PER_MOMENT} rounds at {self.clock.now()}")

    async def _quiet(self) -> None:
        """Until every worker is asleep with nothing to wake it."""
        async with asyncio.timeout(QUIET_SECONDS):
            while busy := [loop for loop in self.loops if not loop.idle]:
                waking = [
                    asyncio.ensure_future(loop.sleeping.wait())
                    for loop in busy
                    if not loop.sleeping.is_set()
                ]
                if waking:
                    await asyncio.wait(waking)
                else:
                    await asyncio.sleep(0)  # woken: its loop has yet to run

    def _next_look(self) -> datetime | None:
        return min((loop.until for loop in self.loops if loop.until is not None), default=None)

    def _next_step(self) -> datetime | None:
        return self._agenda[0][0] if self._agenda else None
