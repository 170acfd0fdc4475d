"""After downtime: the last due slot within the grace window is posted once, late; never a burst."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest

from questions.catalog import Catalog
from storage.sqlite.store import SqliteStore
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness, running_service


async def _start_at(
    moment: datetime, db_path: Path, platform: FakePlatform, catalog: Catalog
) -> list[str]:
    """Start the bot at ``moment`` on the same database; return the titles it posted."""
    before = len(platform.messages)
    async with running_service(db_path, [platform], FakeClock(moment), catalog, seed=1) as service:
        await service.settle()
    return [m.card.title for m in platform.messages[before:] if m.thread is None]


@pytest.fixture
async def scheduled(quiz: QuizHarness, platform: FakePlatform) -> QuizHarness:
    """A channel posting daily at 09:00 UTC whose last round was Tue 2026-12-01 09:00."""
    await quiz.command("schedule daily 09:00 UTC")
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    slot = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    quiz.clock.set(slot)
    await quiz.service.post_slot(channel.id, slot)
    await quiz.service.settle()
    await quiz.service.stop()
    assert len(platform.in_channel()) == 1
    return quiz


async def test_slot_missed_inside_grace_is_posted_once(
    scheduled: QuizHarness, db_path: Path, platform: FakePlatform, catalog: Catalog
) -> None:
    back = datetime(2026, 12, 2, 14, 0, tzinfo=UTC)  # 5 h after the 09:00 slot
    assert await _start_at(back, db_path, platform, catalog) == ["Question #2"]
    assert await _start_at(back, db_path, platform, catalog) == []  # a second restart: nothing


async def test_slot_missed_outside_grace_is_skipped_with_a_log_line(
    scheduled: QuizHarness,
    db_path: Path,
    platform: FakePlatform,
    catalog: Catalog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    back = datetime(2026, 12, 2, 15, 30, tzinfo=UTC)  # 6.5 h late
    with caplog.at_level(logging.WARNING):
        assert await _start_at(back, db_path, platform, catalog) == []
    assert "missed slot(s)" in caplog.text and "skipped" in caplog.text


async def test_long_outage_posts_at_most_one_question(
    scheduled: QuizHarness, db_path: Path, platform: FakePlatform, catalog: Catalog
) -> None:
    back = datetime(2026, 12, 8, 10, 0, tzinfo=UTC)  # a week down, one hour after a slot
    assert await _start_at(back, db_path, platform, catalog) == ["Question #2"]


async def test_paused_channel_is_not_caught_up(
    scheduled: QuizHarness,
    db_path: Path,
    platform: FakePlatform,
    catalog: Catalog,
    clock: FakeClock,
) -> None:
    async with SqliteStore.open(db_path) as store:
        [channel] = await store.channels.list_channels()
        from dataclasses import replace

        await store.channels.update_channel(channel, replace(channel, paused=True))
    back = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)
    assert await _start_at(back, db_path, platform, catalog) == []
