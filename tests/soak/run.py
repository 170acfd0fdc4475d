"""Runs a soak: QuizServices started with their background work on given stores (one, or
replicas on one database), the team's days on virtual time, then the checks."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.kernel.config import QuizConfig
from bot.service import QuizService
from bot.store import Store
from questions.catalog import Catalog
from tests.fakes import FakeClock
from tests.scheduler_time import scheduler_time, schedulers_of
from tests.soak.checks import SoakResult, check
from tests.soak.platform import TimedPlatform
from tests.soak.scenario import SoakPlan, TeamSoak, soak_pack
from tests.soak.time_machine import TimeMachine

SYNC_SECONDS = 10.0  # how long replicas may take to see the set-up through the store
# On PostgreSQL a worker looks for the other replicas' claims once a lease (a minute by
# default), which is 1,440 passes a simulated day; replicas that never die need no short
# lease, so the soak's stores take this one.
LEASE = timedelta(hours=6)


def store_options(backend: str) -> dict[str, Any]:
    """What the soak opens a store of ``backend`` with."""
    return {"lease": LEASE} if backend == "postgres" else {}


@dataclass
class SoakRun:
    result: SoakResult
    refused: list[str]  # member steps the bot refused
    answers: int  # answers the members gave
    unsaved: list[str]  # answers the bot handled without storing them
    failures: list[str]  # outbox passes that raised
    moments: int  # moments the clock stopped at
    wall_seconds: float  # the days, set-up and checks left out
    day_seconds: list[float]  # the wall time of each whole simulated day (24 h from the start)


async def soak(plan: SoakPlan, stores: Sequence[Store]) -> SoakRun:
    """The plan's days on one service per store (several: replicas sharing a database)."""
    clock = FakeClock(plan.start)
    platform = TimedPlatform(clock=clock)
    shared = len(stores) > 1
    catalog = Catalog([soak_pack()])
    services = [
        QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=catalog,
            clock=clock,
            config=QuizConfig(default_schedule=None, replicas_share_store=shared),
            rng=random.Random(7 + n),
            background=True,
        )
        for n, store in enumerate(stores)
    ]
    schedulers = [s for service in services for s in schedulers_of(service)]
    with scheduler_time(clock, *schedulers) as scheduled:
        machine = TimeMachine(scheduled, services)
        started: list[QuizService] = []
        try:
            for service in services:
                await service.start()
                started.append(service)
            team = TeamSoak(plan, services, machine)
            await team.set_up()
            if shared:
                await _all_scheduled(plan, services)
            team.put_on_agenda()
            began = time.perf_counter()
            await machine.run_until(plan.end)
            wall = time.perf_counter() - began
        finally:
            for service in reversed(started):
                await service.stop()
    result = check(plan, team.journal, platform.received())
    days = _day_seconds(plan, machine.trace, began)
    journal = team.journal
    return SoakRun(
        result,
        journal.refused,
        len(journal.answered),
        journal.unsaved,
        machine.failures,
        machine.moments,
        wall,
        days,
    )


def _day_seconds(plan: SoakPlan, trace: list[tuple[datetime, float]], began: float) -> list[float]:
    """How long each simulated day took: from the last moment of the day before (or the
    start) to the day's last moment."""
    ends: dict[int, float] = {}
    for moment, at in trace:
        ends[(moment - plan.start) // timedelta(days=1)] = at
    seconds, before = [], began
    for day in range(min(plan.days, max(ends, default=-1) + 1)):
        end = ends.get(day, before)
        seconds.append(end - before)
        before = end
    return seconds


async def _all_scheduled(plan: SoakPlan, services: Sequence[QuizService]) -> None:
    """Wait until every replica schedules every channel and reminder (each learns of
    the others' changes through the store's notices, in milliseconds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SYNC_SECONDS
    wanted = len(plan.channels)
    reminders = sum(len(c.reminders) for c in plan.channels)
    while True:
        counts = [
            (
                sum(1 for c in await s.store.channels.list_channels() if _fires(s, c.id)),
                len(s.reminders.scheduler._plans) if s.reminders.scheduler else 0,
            )
            for s in services
        ]
        if all(c == (wanted, reminders) for c in counts):
            return
        if loop.time() >= deadline:
            raise AssertionError(f"replicas never all scheduled the soak: {counts}")
        await asyncio.sleep(0.01)


def _fires(service: QuizService, channel_id: int) -> bool:
    return service.scheduler is not None and service.scheduler.next_run(channel_id) is not None
