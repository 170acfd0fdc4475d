"""The ``SeasonStore`` on both backends: a season recorded once with its champions and its
outbox action, read back by key and newest first; the standings' aggregates summed by the
database agree with the leaderboard; the grade logs the memory model replays; a member's
titles, and their erasure."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.kernel.grades import Grade
from bot.kernel.models import ActionKind
from bot.seasons.store import Champion, SeasonRecord, Title
from questions.catalog import Catalog
from tests.core.seasons.season_seed import TURN, channel_settings, seed_november
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness, harness_on
from tests.storage.backends import BACKENDS

NOVEMBER_1 = datetime(2026, 11, 1, tzinfo=UTC)
OCTOBER_1 = datetime(2026, 10, 1, tzinfo=UTC)


@pytest.fixture(params=BACKENDS)
async def quiz(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
) -> AsyncIterator[QuizHarness]:
    async with harness_on(request.param, tmp_path, platform, clock, catalog) as harness:
        await seed_november(harness)
        yield harness


async def ids(quiz: QuizHarness, *names: str) -> list[int]:
    return [await quiz.service.store.members.member_id(quiz.member(n)) for n in names]


async def test_the_aggregates_agree_with_the_leaderboard(quiz: QuizHarness) -> None:
    store = quiz.service.store
    channel = await channel_settings(quiz)
    points = await store.seasons.points_between(channel.id, NOVEMBER_1, TURN)
    board = await store.reports.leaderboard(channel.id, None)
    assert [(p.member_id, p.total) for p in points] == [(r.member_id, r.points) for r in board]
    assert [p.name for p in points] == ["Ann", "Bob", "Cat"]
    assert [p.platform_id for p in points] == ["ann", "bob", "cat"]
    assert await store.seasons.points_between(channel.id, OCTOBER_1, NOVEMBER_1) == []

    [helpful] = await store.seasons.helpful_reviews_between(channel.id, NOVEMBER_1, TURN)
    [reviewer] = await store.seasons.reviewers_between(channel.id, NOVEMBER_1, TURN)
    assert (helpful.name, helpful.total) == ("Cat", 1)  # one of Cat's two agreed
    assert (reviewer.name, reviewer.total) == ("Cat", 2)


async def test_the_grade_logs_hold_the_grades_before_the_end(quiz: QuizHarness) -> None:
    store = quiz.service.store
    ann, bob, cat = await ids(quiz, "ann", "bob", "cat")
    logs = await store.seasons.grade_logs([ann, bob, cat], TURN)
    assert [grade for _, grade, _ in logs[ann]] == [Grade.MISSED] * 3
    assert [grade for _, grade, _ in logs[bob]] == [Grade.MISSED, Grade.NAILED]
    assert logs[cat] == []
    assert await store.seasons.grade_logs([ann], NOVEMBER_1) == {ann: []}


async def test_a_season_is_recorded_once_with_its_champions_and_action(
    quiz: QuizHarness,
) -> None:
    store = quiz.service.store
    channel = await channel_settings(quiz)
    ann, cat = await ids(quiz, "ann", "cat")
    round_id = await store.seasons.last_round_in_season(channel.id, NOVEMBER_1, TURN)
    assert round_id == (await quiz.round()).id
    record = SeasonRecord(
        channel.id,
        "2026-11",
        NOVEMBER_1,
        TURN,
        f"season:{channel.id}:2026-11",
        (Champion(Title.POINTS, ann, "Ann", 45.0), Champion(Title.HELPFUL, cat, "Cat", 1.0)),
    )
    window = ([channel.id, channel.id + 1], "2026-11", NOVEMBER_1, TURN)
    assert await store.seasons.unposted_with_rounds(*window) == {channel.id}
    assert await store.seasons.record_season(record, round_id, TURN)
    assert not await store.seasons.record_season(record, round_id, TURN)
    assert await store.seasons.unposted_with_rounds(*window) == set()  # recorded now
    quiet = ([channel.id], "2026-10", OCTOBER_1, NOVEMBER_1)
    assert await store.seasons.unposted_with_rounds(*quiet) == set()  # no round then
    assert await store.seasons.season_by_key(record.key) == record
    queued = [a for a in await store.outbox.due_actions(TURN) if a.kind is ActionKind.SEASON]
    assert [(a.key, a.round_id) for a in queued] == [(record.key, round_id)]

    october = SeasonRecord(
        channel.id, "2026-10", OCTOBER_1, NOVEMBER_1, f"season:{channel.id}:2026-10"
    )
    assert await store.seasons.record_season(october, round_id, TURN)
    assert [s.season for s in await store.seasons.seasons(channel.id)] == ["2026-11", "2026-10"]

    [title] = await store.seasons.member_titles(cat)
    assert (title.season, title.title, title.channel_name) == ("2026-11", Title.HELPFUL, "practice")
    await store.member_data.erase_member(cat, TURN)
    assert await store.seasons.member_titles(cat) == []
    kept = await store.seasons.season_by_key(record.key)
    assert kept is not None and [c.name for c in kept.champions] == ["Ann"]
