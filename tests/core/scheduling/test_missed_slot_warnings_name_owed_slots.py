"""After downtime, the warning about missed slots counts only slots the channel owed: not
its skipped days (holidays), not the days it was paused, not slots from before it was set
up or given its schedule."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest

from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness, running_service

TUESDAY = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


async def restart_at(
    moment: datetime, db_path: Path, platform: FakePlatform, catalog: Catalog
) -> None:
    async with running_service(db_path, [platform], FakeClock(moment), catalog) as service:
        await service.settle()


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "missed slot(s)" in r.getMessage()]


async def daily_with_a_round_on_tuesday(quiz: QuizHarness) -> None:
    quiz.clock.set(TUESDAY.replace(hour=8))
    await quiz.command("schedule daily 09:00 UTC")
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    quiz.clock.set(TUESDAY)
    await quiz.service.post_slot(channel.id, TUESDAY)
    await quiz.service.settle()


async def test_skipped_days_are_not_missed_slots(
    quiz: QuizHarness,
    db_path: Path,
    platform: FakePlatform,
    catalog: Catalog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await daily_with_a_round_on_tuesday(quiz)
    await quiz.command("schedule skip 2026-12-02..2026-12-04")  # Wed to Fri
    await quiz.service.stop()
    with caplog.at_level(logging.WARNING):
        await restart_at(datetime(2026, 12, 4, 20, 0, tzinfo=UTC), db_path, platform, catalog)
    assert warnings(caplog) == []  # every slot since Tuesday was a holiday's
    with caplog.at_level(logging.WARNING):
        await restart_at(datetime(2026, 12, 5, 20, 0, tzinfo=UTC), db_path, platform, catalog)
    [warning] = warnings(caplog)
    assert warning.startswith("1 missed slot(s) of 1 channel(s)")  # Saturday's alone
    assert "(2026-12-05 09:00:00+00:00 to 2026-12-05 09:00:00+00:00)" in warning


async def test_days_paused_are_not_missed_slots(
    quiz: QuizHarness,
    db_path: Path,
    platform: FakePlatform,
    catalog: Catalog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await daily_with_a_round_on_tuesday(quiz)
    quiz.clock.set(datetime(2026, 12, 1, 10, 0, tzinfo=UTC))
    await quiz.command("pause")
    quiz.clock.set(datetime(2026, 12, 4, 8, 0, tzinfo=UTC))  # Friday, before its slot
    await quiz.command("resume")
    await quiz.service.stop()
    with caplog.at_level(logging.WARNING):
        await restart_at(datetime(2026, 12, 4, 20, 0, tzinfo=UTC), db_path, platform, catalog)
    [warning] = warnings(caplog)
    assert warning.startswith("1 missed slot(s) of 1 channel(s)")  # Friday's alone
    assert "(2026-12-04 09:00:00+00:00 to 2026-12-04 09:00:00+00:00)" in warning


async def test_slots_before_the_channel_had_its_schedule_are_not_missed(
    quiz: QuizHarness,
    db_path: Path,
    platform: FakePlatform,
    catalog: Catalog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    quiz.clock.set(datetime(2026, 12, 1, 14, 0, tzinfo=UTC))  # after that day's 09:00
    await quiz.command("schedule daily 09:00 UTC")
    await quiz.service.stop()
    with caplog.at_level(logging.WARNING):
        await restart_at(datetime(2026, 12, 1, 20, 0, tzinfo=UTC), db_path, platform, catalog)
    assert warnings(caplog) == []
    assert platform.in_channel() == []  # nor is that slot posted late after a restart
