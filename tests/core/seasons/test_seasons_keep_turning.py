"""A process that stays up posts every turn of season, at local midnight across a
daylight-saving change, on both store backends (APScheduler's own job processing on the
fake clock, ``tests.scheduler_time``); after downtime the turn is caught up within the
grace window, once, and not beyond it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from questions.catalog import Catalog
from tests.core.seasons.season_seed import season_posts, seed_november, turn
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness, running_service
from tests.scheduler_time import SchedulerTime, staying_up
from tests.storage.backends import BACKENDS

START = datetime(2026, 10, 19, 8, 0, tzinfo=UTC)  # a Monday, Berlin on summer time
# Midnight in Berlin on the first of each month: winter time from 25 October (UTC+1)
TURNS = (
    ("2026-10", datetime(2026, 10, 31, 23, 0, tzinfo=UTC)),
    ("2026-11", datetime(2026, 11, 30, 23, 0, tzinfo=UTC)),
    ("2026-12", datetime(2026, 12, 31, 23, 0, tzinfo=UTC)),
)


@pytest.fixture(params=BACKENDS)
async def running(
    request: pytest.FixtureRequest, tmp_path: Path, platform: FakePlatform, catalog: Catalog
) -> AsyncIterator[tuple[QuizHarness, SchedulerTime]]:
    clock = FakeClock(START)
    async with staying_up(request.param, tmp_path, platform, clock, catalog) as running:
        yield running


async def test_every_turn_posts_at_local_midnight_in_a_process_that_stays_up(
    running: tuple[QuizHarness, SchedulerTime], platform: FakePlatform
) -> None:
    quiz, time = running
    await quiz.command("schedule mon 09:00 Europe/Berlin")
    posted: list[str] = []
    for season, midnight in TURNS:
        await time.run_until(midnight - timedelta(minutes=1))
        assert [p.key.rsplit(":", 1)[1] for p in season_posts(platform)] == posted, (
            f"the post of {season} came before local midnight"
        )
        await time.run_until(midnight + timedelta(minutes=1))
        posted.append(season)
        assert [p.key.rsplit(":", 1)[1] for p in season_posts(platform)] == posted
    titles = [p.card.title for p in season_posts(platform)]
    assert titles == ["🏆 Season 2026-10", "🏆 Season 2026-11", "🏆 Season 2026-12"]


async def test_after_downtime_the_turn_is_posted_late_within_the_grace_once(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    quiz: QuizHarness,
) -> None:
    await seed_november(quiz)
    await quiz.service.stop()
    clock.set(datetime(2026, 12, 1, 5, 0, tzinfo=UTC))  # down at midnight, back at 05:00
    for _ in range(2):  # the second start finds the season recorded
        async with running_service(db_path, [platform], clock, catalog) as service:
            await service.settle()
    [post] = season_posts(platform)
    assert post.key.endswith(":2026-11")


async def test_after_downtime_beyond_the_grace_the_turn_is_not_posted(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    quiz: QuizHarness,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await seed_november(quiz)
    await quiz.service.stop()
    clock.set(datetime(2026, 12, 1, 7, 0, tzinfo=UTC))  # the grace window is 6 h
    warned = []
    for _ in range(2):  # the second start does not warn again
        caplog.clear()
        async with running_service(db_path, [platform], clock, catalog) as service:
            await service.settle()
        warned.append("turns of season of 1 channel(s)" in caplog.text)
        clock.advance(hours=1)
    assert season_posts(platform) == []
    assert warned == [True, False]


async def test_a_turn_missed_by_a_season_without_rounds_is_not_warned_about(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    quiz: QuizHarness,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # the quiz starts in December: November had no round, so its turn would have said nothing
    clock.set(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    await quiz.command("now")
    await quiz.service.stop()
    clock.set(datetime(2026, 12, 3, 9, 0, tzinfo=UTC))
    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()
    assert "turns of season" not in caplog.text


async def test_a_turn_posted_on_time_is_not_warned_about_after_a_restart(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    quiz: QuizHarness,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await seed_november(quiz)
    await turn(quiz)
    await quiz.service.stop()
    clock.set(datetime(2026, 12, 1, 7, 0, tzinfo=UTC))  # restarted past the grace window
    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()
    assert len(season_posts(platform)) == 1
    assert "turns of season" not in caplog.text
