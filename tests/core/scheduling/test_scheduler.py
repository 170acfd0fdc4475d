"""QuizScheduler: each channel's slots, replaced at once, removed when paused, firing with the
slot; one APScheduler job set to the earliest group's slot.

The fake clock sits years ahead of the wall clock, so APScheduler (which decides
due-ness by the wall clock) never fires a job on its own in these tests; the
tests run a group's fire directly (or the one job's function), except one that
places a slot just behind the wall clock to see APScheduler itself fire it,
without waiting.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.kernel.models import ChannelSettings
from bot.kernel.refs import ChannelRef
from bot.scheduling.scheduler import FIRE_CONCURRENCY, QuizScheduler, _ids_of, job_id
from bot.scheduling.slot_plans import SlotPlan, slot_plan

# Wednesday 2031-01-15 06:00 UTC (07:00 in Berlin, winter)
START = datetime(2031, 1, 15, 6, 0, tzinfo=UTC)
BERLIN = ZoneInfo("Europe/Berlin")


class StepClock:
    def __init__(self, now: datetime) -> None:
        self.current = now

    def now(self) -> datetime:
        return self.current


class SlotRecorder:
    def __init__(self) -> None:
        self.calls: list[tuple[int, datetime]] = []
        self.fired = asyncio.Event()
        self.fail_with: Exception | None = None

    async def __call__(self, channel_id: int, slot: datetime) -> None:
        self.calls.append((channel_id, slot))
        self.fired.set()
        if self.fail_with is not None:
            raise self.fail_with


def channel(
    channel_id: int = 1,
    schedule: str | None = "weekdays 09:30",
    timezone: str = "Europe/Berlin",
    **changes: object,
) -> ChannelSettings:
    ref = ChannelRef("console", "local", f"c{channel_id}")
    return ChannelSettings(
        id=channel_id,
        ref=ref,
        timezone=timezone,
        schedule=schedule,
        **changes,  # type: ignore[arg-type]
    )


@pytest.fixture
def clock() -> StepClock:
    return StepClock(START)


@pytest.fixture
def recorder() -> SlotRecorder:
    return SlotRecorder()


@pytest.fixture
async def scheduler(clock: StepClock, recorder: SlotRecorder) -> AsyncIterator[QuizScheduler]:
    quiz_scheduler = QuizScheduler(recorder, clock)
    quiz_scheduler.start()
    yield quiz_scheduler
    await quiz_scheduler.shutdown()


def aps_job(quiz_scheduler: QuizScheduler, channel_id: int) -> object:
    return quiz_scheduler.job_for(channel_id)


async def fires_done(quiz_scheduler: QuizScheduler) -> None:
    """Wait for the group fires the one job started."""
    while quiz_scheduler._in_flight:
        await asyncio.wait(set(quiz_scheduler._in_flight))


def groups(quiz_scheduler: QuizScheduler, channel_ids: range) -> int:
    """How many different group fires the channels' slots take."""
    jobs = (quiz_scheduler.job_for(channel_id) for channel_id in channel_ids)
    return len({job.args for job in jobs if job is not None})


async def run_job(quiz_scheduler: QuizScheduler, channel_id: int) -> None:
    job = quiz_scheduler.job_for(channel_id)
    assert job is not None
    await job.func(*job.args)


async def test_set_channel_sets_the_one_job_to_the_next_slot(scheduler: QuizScheduler) -> None:
    scheduler.set_channel(channel(1))
    # Wednesday 09:30 Berlin (CET) = 08:30 UTC
    assert scheduler.next_run(1) == datetime(2031, 1, 15, 8, 30, tzinfo=UTC)
    job = scheduler._scheduler.get_job(job_id())
    assert job.next_run_time == datetime(2031, 1, 15, 8, 30, tzinfo=UTC)
    assert job.coalesce is True
    assert job.max_instances == 1
    assert job.misfire_grace_time is None  # never APScheduler's default of 1 s
    assert [j.id for j in scheduler._scheduler.get_jobs()] == ["channel:slots"]


async def test_the_job_follows_the_earliest_group(scheduler: QuizScheduler) -> None:
    job = scheduler._scheduler.get_job(job_id())
    assert job.next_run_time is None  # no channel yet: the job waits
    scheduler.set_channel(channel(1))  # 08:30 UTC
    scheduler.set_channel(channel(2, schedule="daily 07:15", timezone="UTC"))
    assert scheduler._scheduler.get_job(job_id()).next_run_time == datetime(
        2031, 1, 15, 7, 15, tzinfo=UTC
    )
    scheduler.remove_channel(2)
    assert scheduler._scheduler.get_job(job_id()).next_run_time == datetime(
        2031, 1, 15, 8, 30, tzinfo=UTC
    )
    scheduler.set_channel(channel(1, paused=True))
    assert scheduler._scheduler.get_job(job_id()).next_run_time is None


async def test_the_job_fires_the_groups_due_and_queues_their_next_slot(
    scheduler: QuizScheduler, clock: StepClock, recorder: SlotRecorder
) -> None:
    scheduler.set_channel(channel(1))  # 08:30 UTC on weekdays
    scheduler.set_channel(channel(2, schedule="daily 08:30", timezone="UTC"))
    scheduler.set_channel(channel(3, schedule="daily 12:00", timezone="UTC"))
    job = scheduler._scheduler.get_job(job_id())
    clock.current = datetime(2031, 1, 15, 8, 30, 1, tzinfo=UTC)
    await job.func(*job.args)
    await fires_done(scheduler)  # the groups' fires are tasks of their own
    slot = datetime(2031, 1, 15, 8, 30, tzinfo=UTC)
    assert sorted(recorder.calls) == [(1, slot), (2, slot)]
    assert scheduler.next_run(1) == datetime(2031, 1, 16, 8, 30, tzinfo=UTC)
    assert scheduler.next_run(2) == datetime(2031, 1, 16, 8, 30, tzinfo=UTC)
    assert scheduler.next_run(3) == datetime(2031, 1, 15, 12, 0, tzinfo=UTC)
    assert scheduler._scheduler.get_job(job_id()).next_run_time == datetime(
        2031, 1, 15, 12, 0, tzinfo=UTC
    )


async def test_a_group_fired_late_fires_once_and_then_at_its_next_slot(
    scheduler: QuizScheduler, clock: StepClock, recorder: SlotRecorder
) -> None:
    scheduler.set_channel(channel(1, schedule="daily 08:30", timezone="UTC"))
    job = scheduler._scheduler.get_job(job_id())
    clock.current = datetime(2031, 1, 17, 9, 0, tzinfo=UTC)  # two days and a half later
    await job.func(*job.args)
    await fires_done(scheduler)
    assert recorder.calls == [(1, datetime(2031, 1, 17, 8, 30, tzinfo=UTC))]
    assert scheduler.next_run(1) == datetime(2031, 1, 18, 8, 30, tzinfo=UTC)


async def test_replacing_a_schedule_takes_effect_at_once(scheduler: QuizScheduler) -> None:
    scheduler.set_channel(channel(1))
    scheduler.set_channel(channel(1, schedule="daily 07:15", timezone="America/New_York"))
    # 07:15 EST = 12:15 UTC, the same day
    assert scheduler.next_run(1) == datetime(2031, 1, 15, 12, 15, tzinfo=UTC)
    assert len(scheduler._scheduler.get_jobs()) == 1
    scheduler.set_channel(channel(1, schedule="0 6 * * 1-5", timezone="UTC"))
    assert scheduler.next_run(1) == datetime(2031, 1, 16, 6, 0, tzinfo=UTC)  # strictly after


async def test_channels_are_independent(scheduler: QuizScheduler) -> None:
    scheduler.set_channel(channel(1))
    scheduler.set_channel(channel(2, schedule="mon,wed,fri 12:00", timezone="UTC"))
    assert scheduler.next_run(1) == datetime(2031, 1, 15, 8, 30, tzinfo=UTC)
    assert scheduler.next_run(2) == datetime(2031, 1, 15, 12, 0, tzinfo=UTC)
    scheduler.remove_channel(1)
    assert scheduler.next_run(1) is None
    assert aps_job(scheduler, 1) is None
    assert scheduler.next_run(2) is not None


@pytest.mark.parametrize(
    "settings",
    [
        channel(1, paused=True),
        channel(1, disabled_reason="channel not found (404)"),
        channel(1, schedule=None),
        channel(1, schedule=""),
    ],
    ids=["paused", "disabled", "no-schedule", "empty-schedule"],
)
async def test_paused_disabled_or_unscheduled_channels_have_no_job(
    scheduler: QuizScheduler, settings: ChannelSettings
) -> None:
    scheduler.set_channel(channel(1))
    assert aps_job(scheduler, 1) is not None
    scheduler.set_channel(settings)
    assert aps_job(scheduler, 1) is None
    assert scheduler.next_run(1) is None
    # resume: the job is back
    scheduler.set_channel(channel(1))
    assert scheduler.next_run(1) == datetime(2031, 1, 15, 8, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("schedule", "timezone", "problem"),
    [("weekdayz 9", "UTC", "unknown schedule"), ("daily 10:00", "Mars/Base", "unknown timezone")],
)
async def test_an_invalid_stored_schedule_removes_the_job_and_logs(
    scheduler: QuizScheduler,
    caplog: pytest.LogCaptureFixture,
    schedule: str,
    timezone: str,
    problem: str,
) -> None:
    scheduler.set_channel(channel(7))
    with caplog.at_level(logging.ERROR, logger="bot.scheduling.scheduler"):
        scheduler.set_channel(channel(7, schedule=schedule, timezone=timezone))
    assert aps_job(scheduler, 7) is None
    assert "channel 7: not scheduled" in caplog.text and problem in caplog.text


async def test_channels_set_before_start_are_scheduled_at_start(
    clock: StepClock, recorder: SlotRecorder
) -> None:
    quiz_scheduler = QuizScheduler(recorder, clock)
    quiz_scheduler.set_channel(channel(1))
    quiz_scheduler.set_channel(channel(2, paused=True))
    assert quiz_scheduler.next_run(1) == datetime(2031, 1, 15, 8, 30, tzinfo=UTC)
    assert quiz_scheduler.next_run(2) is None
    quiz_scheduler.start()
    try:
        assert [j.id for j in quiz_scheduler._scheduler.get_jobs()] == ["channel:slots"]
        assert quiz_scheduler._scheduler.get_job(job_id()).next_run_time == datetime(
            2031, 1, 15, 8, 30, tzinfo=UTC
        )
        assert quiz_scheduler.next_run(1) == datetime(2031, 1, 15, 8, 30, tzinfo=UTC)
    finally:
        await quiz_scheduler.shutdown()


async def test_the_job_passes_the_slot_time(
    scheduler: QuizScheduler, clock: StepClock, recorder: SlotRecorder
) -> None:
    scheduler.set_channel(channel(3))
    clock.current = datetime(2031, 1, 15, 8, 30, 0, 400_000, tzinfo=UTC)  # fired a bit late
    await run_job(scheduler, 3)
    assert recorder.calls == [(3, datetime(2031, 1, 15, 8, 30, tzinfo=UTC))]


async def test_summer_slot_is_an_hour_earlier_in_utc(
    scheduler: QuizScheduler, clock: StepClock, recorder: SlotRecorder
) -> None:
    clock.current = datetime(2031, 7, 14, 5, 0, tzinfo=UTC)  # Monday, CEST
    scheduler.set_channel(channel(1))
    assert scheduler.next_run(1) == datetime(2031, 7, 14, 7, 30, tzinfo=UTC)
    clock.current = datetime(2031, 7, 14, 7, 30, 1, tzinfo=UTC)
    await run_job(scheduler, 1)
    assert recorder.calls == [(1, datetime(2031, 7, 14, 7, 30, tzinfo=UTC))]


async def test_the_same_slot_is_handed_over_once(
    scheduler: QuizScheduler,
    clock: StepClock,
    recorder: SlotRecorder,
    caplog: pytest.LogCaptureFixture,
) -> None:
    scheduler.set_channel(channel(1))
    clock.current = datetime(2031, 1, 15, 8, 30, 1, tzinfo=UTC)
    await run_job(scheduler, 1)
    with caplog.at_level(logging.WARNING, logger="bot.scheduling.scheduler"):
        await run_job(scheduler, 1)
    assert len(recorder.calls) == 1
    assert "already fired" in caplog.text


async def test_a_run_later_than_the_grace_window_is_skipped_and_logged(
    scheduler: QuizScheduler,
    clock: StepClock,
    recorder: SlotRecorder,
    caplog: pytest.LogCaptureFixture,
) -> None:
    scheduler.set_channel(channel(4, grace_hours=1.0))
    clock.current = datetime(2031, 1, 15, 9, 31, tzinfo=UTC)  # 61 minutes after the slot
    with caplog.at_level(logging.WARNING, logger="bot.scheduling.scheduler"):
        await run_job(scheduler, 4)
    assert recorder.calls == []
    assert "channel 4: slot 2031-01-15T08:30:00+00:00 fired 1:01:00 late" in caplog.text


async def test_errors_of_on_slot_are_logged_with_the_channel(
    scheduler: QuizScheduler,
    clock: StepClock,
    recorder: SlotRecorder,
    caplog: pytest.LogCaptureFixture,
) -> None:
    recorder.fail_with = RuntimeError("database is locked")
    scheduler.set_channel(channel(5))
    clock.current = datetime(2031, 1, 15, 8, 30, 2, tzinfo=UTC)
    with caplog.at_level(logging.ERROR, logger="bot.scheduling.scheduler"):
        await run_job(scheduler, 5)  # does not raise
    assert recorder.calls == [(5, datetime(2031, 1, 15, 8, 30, tzinfo=UTC))]
    record = next(r for r in caplog.records if r.name == "bot.scheduling.scheduler")
    assert "channel 5: handling the slot" in record.getMessage()
    assert record.exc_info is not None and "database is locked" in str(record.exc_info[1])
    # the job stays scheduled for the next slot
    assert scheduler.next_run(5) is not None


async def test_apscheduler_fires_a_due_job_with_its_slot(recorder: SlotRecorder) -> None:
    # A daily UTC slot one minute behind the wall clock: due as soon as the job is added.
    slot = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=1)
    clock = StepClock(slot - timedelta(seconds=30))
    quiz_scheduler = QuizScheduler(recorder, clock)
    quiz_scheduler.start()
    try:
        quiz_scheduler.set_channel(
            channel(9, schedule=f"{slot.minute} {slot.hour} * * *", timezone="UTC")
        )
        assert quiz_scheduler.next_run(9) == slot
        clock.current = slot + timedelta(seconds=1)
        await asyncio.wait_for(recorder.fired.wait(), timeout=5)
        assert recorder.calls == [(9, slot)]
        # coalesced and rescheduled: the next run is the next day's slot
        assert quiz_scheduler.next_run(9) == slot + timedelta(days=1)
    finally:
        await quiz_scheduler.shutdown()


async def test_shutdown_stops_apscheduler_and_waits_for_a_slot_in_flight(
    clock: StepClock,
) -> None:
    release = asyncio.Event()
    finished: list[int] = []

    async def slow_slot(channel_id: int, slot: datetime) -> None:
        await release.wait()
        finished.append(channel_id)

    quiz_scheduler = QuizScheduler(slow_slot, clock)
    quiz_scheduler.start()
    quiz_scheduler.set_channel(channel(1))
    clock.current = datetime(2031, 1, 15, 8, 30, 1, tzinfo=UTC)
    job = quiz_scheduler.job_for(1)
    assert job is not None
    in_flight = asyncio.create_task(job.func(*job.args))
    await asyncio.sleep(0)
    stopping = asyncio.create_task(quiz_scheduler.shutdown())
    await asyncio.sleep(0)
    assert not stopping.done()
    release.set()
    await stopping
    await in_flight
    assert finished == [1]
    assert quiz_scheduler._scheduler.running is False
    assert quiz_scheduler.running is False
    await quiz_scheduler.shutdown()  # a second shutdown is harmless


async def test_a_repeated_local_time_fires_once(
    scheduler: QuizScheduler, clock: StepClock, recorder: SlotRecorder
) -> None:
    clock.current = datetime(2031, 10, 25, 12, 0, tzinfo=UTC)
    scheduler.set_channel(channel(1, schedule="daily 02:30"))
    first = scheduler.next_run(1)
    # 2031-10-26 is the autumn change in Berlin: 02:30 CEST only, then 02:30 CET next day
    assert first == datetime(2031, 10, 26, 0, 30, tzinfo=UTC)
    clock.current = first + timedelta(seconds=1)
    job = scheduler._scheduler.get_job(job_id())
    await job.func(*job.args)
    assert scheduler.next_run(1) == datetime(2031, 10, 27, 1, 30, tzinfo=UTC)


async def test_channels_on_the_same_schedule_share_one_job(
    scheduler: QuizScheduler, clock: StepClock, recorder: SlotRecorder
) -> None:
    for channel_id in range(1, 101):
        scheduler.set_channel(channel(channel_id))
    scheduler.set_channel(channel(101, timezone="America/New_York"))
    assert groups(scheduler, range(1, 102)) == 2
    scheduler.set_channel(channel(7, paused=True))
    scheduler.set_channel(channel(8, schedule="daily 10:00"))
    assert groups(scheduler, range(1, 102)) == 3
    clock.current = datetime(2031, 1, 15, 8, 30, 1, tzinfo=UTC)
    await run_job(scheduler, 1)
    slot = datetime(2031, 1, 15, 8, 30, tzinfo=UTC)
    assert recorder.calls == [(c, slot) for c in range(1, 101) if c not in (7, 8)]
    scheduler.remove_channel(101)
    assert groups(scheduler, range(1, 102)) == 2
    assert scheduler.next_run(8) == datetime(2031, 1, 15, 9, 0, tzinfo=UTC)


async def test_replicas_sharing_the_store_walk_a_slot_from_their_own_start(
    clock: StepClock, recorder: SlotRecorder
) -> None:
    quiz_scheduler = QuizScheduler(recorder, clock, spread=True, start_at=lambda count: 3)
    quiz_scheduler.start()
    try:
        for channel_id in range(1, 6):
            quiz_scheduler.set_channel(channel(channel_id))
        clock.current = datetime(2031, 1, 15, 8, 30, 1, tzinfo=UTC)
        await run_job(quiz_scheduler, 1)
    finally:
        await quiz_scheduler.shutdown()
    assert [c for c, _ in recorder.calls] == [4, 5, 1, 2, 3]  # every channel, once


async def test_replicas_sharing_the_store_record_several_channels_rounds_at_once(
    clock: StepClock,
) -> None:
    # On a pooled store one channel's round need not wait for the last one's to be
    # recorded: a replica records FIRE_CONCURRENCY at a time, still each channel once.
    in_flight: set[int] = set()
    most = 0
    fired: list[int] = []
    release = asyncio.Event()

    async def slow_slot(channel_id: int, slot: datetime) -> None:
        nonlocal most
        in_flight.add(channel_id)
        most = max(most, len(in_flight))
        if len(in_flight) == FIRE_CONCURRENCY:
            release.set()
        await release.wait()
        in_flight.discard(channel_id)
        fired.append(channel_id)

    quiz_scheduler = QuizScheduler(slow_slot, clock, spread=True, start_at=lambda count: 0)
    quiz_scheduler.start()
    try:
        for channel_id in range(1, 11):
            quiz_scheduler.set_channel(channel(channel_id))
        clock.current = datetime(2031, 1, 15, 8, 30, 1, tzinfo=UTC)
        await asyncio.wait_for(run_job(quiz_scheduler, 1), timeout=5)
    finally:
        await quiz_scheduler.shutdown()
    assert most == FIRE_CONCURRENCY
    assert sorted(fired) == list(range(1, 11))


async def test_one_process_on_its_own_store_records_one_round_at_a_time(
    clock: StepClock,
) -> None:
    in_flight = 0
    most = 0

    async def slot_handler(channel_id: int, slot: datetime) -> None:
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        await asyncio.sleep(0)
        in_flight -= 1

    quiz_scheduler = QuizScheduler(slot_handler, clock)
    quiz_scheduler.start()
    try:
        for channel_id in range(1, 6):
            quiz_scheduler.set_channel(channel(channel_id))
        clock.current = datetime(2031, 1, 15, 8, 30, 1, tzinfo=UTC)
        await run_job(quiz_scheduler, 1)
    finally:
        await quiz_scheduler.shutdown()
    assert most == 1


def plan_of(schedule: str, timezone: str = "Europe/Berlin") -> SlotPlan:
    return slot_plan(schedule, timezone, 6.0)


def held(quiz_scheduler: QuizScheduler) -> tuple[object, ...]:
    """What the scheduler keeps: each channel's plan, each group's channels in order, and
    each group's next slot."""
    return (
        dict(quiz_scheduler._plans),
        {key: _ids_of(members) for key, members in quiz_scheduler._groups.items()},
        dict(quiz_scheduler._next),
    )


async def test_plans_given_together_are_kept_as_given_one_by_one(
    clock: StepClock, recorder: SlotRecorder
) -> None:
    # Start-up hands a zone's channels on the default recap to the scheduler at once; some
    # of them may be planned already, and a group may be one channel: each is kept as
    # set_plan keeps it.
    friday, monday = plan_of("fri 16:00"), plan_of("mon 10:00", "Asia/Tokyo")
    together, one_by_one = QuizScheduler(recorder, clock), QuizScheduler(recorder, clock)
    for quiz_scheduler in (together, one_by_one):
        quiz_scheduler.set_plan(5, monday)  # planned before, in another group
        quiz_scheduler.set_plan(9, friday)
    given = [(friday, [1, 2, 3]), (monday, [4, 5, 6]), (friday, [7])]
    together.set_group_plans(given)
    for plan, ids in given:
        for channel_id in ids:
            one_by_one.set_plan(channel_id, plan)
    assert held(together) == held(one_by_one)
    assert together.next_run(5) == together.next_run(4) != together.next_run(1)
    assert _ids_of(together._groups[friday.group]) == [9, 1, 2, 3, 7]
