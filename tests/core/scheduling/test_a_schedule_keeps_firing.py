"""A QuizScheduler keeps firing in a process that stays up, as APScheduler itself runs it.

These tests let APScheduler's own job processing decide when the one job runs and what
its next run is (``tests.scheduler_time``), over several days of a fake clock; calling
the job's function directly would skip the decision that removed the job of a single
group at its first slot.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.kernel.models import ChannelSettings
from bot.kernel.refs import ChannelRef
from bot.scheduling.scheduler import QuizScheduler, job_id
from tests.fakes import FakeClock
from tests.scheduler_time import scheduler_time

# Tuesday 2031-01-14 08:00 UTC
START = datetime(2031, 1, 14, 8, 0, tzinfo=UTC)


def channel(channel_id: int, schedule: str, timezone: str = "UTC") -> ChannelSettings:
    return ChannelSettings(
        id=channel_id,
        ref=ChannelRef("console", "local", f"c{channel_id}"),
        timezone=timezone,
        schedule=schedule,
    )


class Slots:
    def __init__(self) -> None:
        self.fired: list[tuple[int, datetime]] = []

    async def __call__(self, channel_id: int, slot: datetime) -> None:
        self.fired.append((channel_id, slot))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
async def slots() -> Slots:
    return Slots()


@pytest.fixture
async def scheduler(clock: FakeClock, slots: Slots) -> AsyncIterator[QuizScheduler]:
    quiz_scheduler = QuizScheduler(slots, clock)
    yield quiz_scheduler
    await quiz_scheduler.shutdown()


def daily(hour: int, minute: int, days: range) -> list[datetime]:
    return [START.replace(hour=hour, minute=minute) + timedelta(days=d) for d in days]


async def test_one_channel_on_its_own_schedule_fires_every_day(
    clock: FakeClock, slots: Slots, scheduler: QuizScheduler
) -> None:
    with scheduler_time(clock, scheduler) as time:
        scheduler.set_channel(channel(1, "daily 09:00"))
        scheduler.start()
        await time.run_until(START + timedelta(days=4))

    assert slots.fired == [(1, slot) for slot in daily(9, 0, range(4))], (
        "a single schedule group fired on its first day only"
    )
    assert scheduler._scheduler.get_job(job_id()).next_run_time == START.replace(
        hour=9
    ) + timedelta(days=4)


async def test_channels_on_one_schedule_fire_every_day(
    clock: FakeClock, slots: Slots, scheduler: QuizScheduler
) -> None:
    with scheduler_time(clock, scheduler) as time:
        scheduler.start()  # channels set after start, as an admin's /quiz schedule does
        for channel_id in (1, 2, 3):
            scheduler.set_channel(channel(channel_id, "weekdays 09:30", "Europe/Berlin"))
        await time.run_until(START + timedelta(days=7))

    # Berlin 09:30 in winter is 08:30 UTC; Tuesday to Monday, without the weekend
    weekdays = [d for d in daily(8, 30, range(7)) if d.weekday() < 5]
    assert sorted(slots.fired) == [(c, d) for c in (1, 2, 3) for d in weekdays]


async def test_slots_a_minute_apart_all_fire_and_a_changed_schedule_fires_next(
    clock: FakeClock, slots: Slots, scheduler: QuizScheduler
) -> None:
    with scheduler_time(clock, scheduler) as time:
        scheduler.start()
        scheduler.set_channel(channel(1, "22,23,24 8 * * *"))
        await time.run_until(START.replace(minute=30))
        assert slots.fired == [(1, START.replace(minute=m)) for m in (22, 23, 24)]

        scheduler.set_channel(channel(1, "daily 10:00"))
        await time.run_until(START + timedelta(days=1, hours=3))

    assert slots.fired[3:] == [(1, slot) for slot in daily(10, 0, range(2))]


async def test_a_group_left_and_joined_again_after_the_job_ran_fires(
    clock: FakeClock, slots: Slots, scheduler: QuizScheduler
) -> None:
    with scheduler_time(clock, scheduler) as time:
        scheduler.start()
        scheduler.set_channel(channel(1, "daily 09:00"))
        await time.run_until(START.replace(hour=10))
        scheduler.remove_channel(1)  # paused
        await time.run_until(START + timedelta(days=1, hours=2))
        scheduler.set_channel(channel(1, "daily 09:00"))  # resumed
        await time.run_until(START + timedelta(days=3, hours=2))

    assert slots.fired == [(1, slot) for slot in daily(9, 0, range(0, 4)) if slot.day != 15]


async def test_a_job_apscheduler_dropped_is_armed_again_by_the_next_change(
    clock: FakeClock, slots: Slots, scheduler: QuizScheduler
) -> None:
    with scheduler_time(clock, scheduler) as time:
        scheduler.start()
        scheduler.set_channel(channel(1, "daily 09:00"))
        scheduler._scheduler.remove_job(job_id())  # as APScheduler does when it sees no next run
        scheduler.set_channel(channel(2, "daily 12:00"))
        await time.run_until(START + timedelta(days=1, hours=8))

    assert sorted(slots.fired) == [(1, slot) for slot in daily(9, 0, range(2))] + [
        (2, slot) for slot in daily(12, 0, range(2))
    ]
