"""Start-up at many channels, each on a schedule and timezone of its own (as teams set them;
a bench where every channel shares a few schedules hid this): the scheduler keeps one
APScheduler job, not one per (schedule, timezone), so neither its bookkeeping nor its log
grows with the channels; the recaps' catch-up works out each timezone's recap slot once,
not once per channel; and the slots an outage skipped are one warning, not one a channel."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import bot.pairing.weekly
import bot.recaps.weekly
from bot.kernel.config import QuizConfig
from bot.kernel.models import ChannelSettings
from bot.kernel.refs import ChannelRef
from bot.scheduling.schedule_spec import parse_schedule, parse_timezone
from bot.scheduling.slot_arithmetic import missed_slot, previous_slot
from bot.service import QuizService
from questions.catalog import Catalog
from storage.sqlite.store import SqliteStore
from tests.fakes import FakeClock, FakePlatform

# Years ahead of the wall clock: APScheduler (which decides due-ness by the wall clock)
# fires nothing while these tests run. Saturday noon UTC: every recap slot of the week
# (Friday 16:00 local) passed more than the 6 h grace window ago, so none is due now.
SATURDAY = datetime(2031, 1, 18, 12, 0, tzinfo=UTC)
ZONES = (
    "UTC",
    "Europe/Berlin",
    "Europe/London",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Tokyo",
    "Asia/Kolkata",
    "Asia/Singapore",
    "Australia/Sydney",
    "Africa/Lagos",
)


def own_schedule(number: int) -> tuple[str, str]:
    """A schedule and timezone no other channel of up to 720 has."""
    minute = number % 60
    hour = 7 + (number // 60) % 12
    return f"daily {hour:02d}:{minute:02d}", ZONES[number % len(ZONES)]


async def add_channels(
    db_path: Path,
    count: int,
    catalog: Catalog,
    *,
    asked: bool = True,
    schedules: int | None = None,
) -> None:
    """``count`` channels, each on its own schedule (``schedules``: on that many, in turn);
    ``asked``: each with its latest slot's round, as a bot that was running leaves them
    (nothing is caught up at start)."""
    async with SqliteStore.open(db_path) as store:
        question = next(iter((await store.rounds.sync_questions(catalog.keys())).values()))
        for number in range(count):
            schedule, zone = own_schedule(number if schedules is None else number % schedules)
            ref = ChannelRef("fake", "team", f"C{number}", f"quiz-{number}")
            channel = await store.channels.create_channel(
                ChannelSettings(id=0, ref=ref, timezone=zone, schedule=schedule)
            )
            slot = previous_slot(parse_schedule(schedule), parse_timezone(zone), SATURDAY)
            if asked and slot is not None:
                await store.rounds.create_round(
                    channel.id,
                    lambda asked_before: question,
                    slot,
                    scheduled=True,
                    created_at=slot,
                    actions=(),
                )


@asynccontextmanager
async def started(
    db_path: Path,
    platform: FakePlatform,
    catalog: Catalog,
    *,
    background: bool = True,
    at: datetime = SATURDAY,
) -> AsyncIterator[QuizService]:
    """The service started as the bot runs it (with background work: the schedulers run)."""
    async with SqliteStore.open(db_path) as store:
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=catalog,
            clock=FakeClock(at),
            config=QuizConfig(default_schedule=None),
            background=background,
        )
        await service.start()
        try:
            yield service
        finally:
            await service.stop()


async def test_start_up_logs_the_same_lines_for_10_or_120_schedules(
    tmp_path: Path,
    platform: FakePlatform,
    catalog: Catalog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    counts = []
    for channels in (10, 120):
        db_path = tmp_path / f"{channels}.db"
        await add_channels(db_path, channels, catalog)
        caplog.clear()
        with caplog.at_level(logging.INFO):
            async with started(db_path, platform, catalog):
                counts.append(len(caplog.records))
    assert counts[0] == counts[1], f"log lines at start, 10 vs 120 schedules: {counts}"


async def test_the_scheduler_keeps_one_apscheduler_job_for_any_number_of_schedules(
    db_path: Path, platform: FakePlatform, catalog: Catalog
) -> None:
    await add_channels(db_path, 120, catalog)
    async with started(db_path, platform, catalog) as service:
        assert service.scheduler is not None and "recap" in service.schedulers
        assert len(service.scheduler._scheduler.get_jobs()) == 1
        assert len(service.schedulers["recap"]._scheduler.get_jobs()) == 1
        # each channel still fires at its own slot: 07:00 UTC, 07:01 in Berlin (06:01 UTC)
        assert service.scheduler.next_run(1) == datetime(2031, 1, 19, 7, 0, tzinfo=UTC)
        assert service.scheduler.next_run(2) == datetime(2031, 1, 19, 6, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("weekly", "what"), [(bot.recaps.weekly, "recap"), (bot.pairing.weekly, "pairing")]
)
async def test_the_weekly_catch_ups_work_out_each_timezones_slot_once(
    db_path: Path,
    platform: FakePlatform,
    catalog: Catalog,
    monkeypatch: pytest.MonkeyPatch,
    weekly: ModuleType,
    what: str,
) -> None:
    await add_channels(db_path, 120, catalog)
    decisions: list[tuple[object, ...]] = []

    def counted_missed_slot(*args: Any) -> Any:
        decisions.append(args)
        return missed_slot(*args)

    monkeypatch.setattr(weekly, "missed_slot", counted_missed_slot)
    async with started(db_path, platform, catalog, background=False):
        pass
    assert len(decisions) == len(ZONES), f"{len(decisions)} {what} decisions for 120 channels"


async def test_slots_an_outage_skipped_are_one_warning_for_all_channels(
    db_path: Path,
    platform: FakePlatform,
    catalog: Catalog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await add_channels(db_path, 30, catalog)
    # back two days later, at noon: each channel's slot of yesterday and of today's
    # morning passed beyond the grace window (the channels' slots are 07:00 to 07:29 local)
    with caplog.at_level(logging.WARNING, logger="bot.rounds.slots"):
        async with started(
            db_path, platform, catalog, background=False, at=SATURDAY + timedelta(days=2)
        ):
            pass
    warnings = [r.getMessage() for r in caplog.records if r.name == "bot.rounds.slots"]
    assert len(warnings) == 1, warnings
    assert "missed slot(s) of 30 channel(s)" in warnings[0]
    assert "older than the 6 h grace window skipped" in warnings[0]


async def test_slots_an_outage_skipped_are_warned_about_once_not_at_every_start(
    db_path: Path,
    platform: FakePlatform,
    catalog: Catalog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await add_channels(db_path, 3, catalog)
    warned = []
    for hours in (8, 9, 10):  # every slot beyond the grace; started again before the next
        caplog.clear()
        back = SATURDAY + timedelta(days=2, hours=hours)
        with caplog.at_level(logging.WARNING, logger="bot.rounds.slots"):
            async with started(db_path, platform, catalog, background=False, at=back):
                pass
        warned.append(any(r.name == "bot.rounds.slots" for r in caplog.records))
    assert warned == [True, False, False]
