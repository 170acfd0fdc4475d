"""Per-round facts the bot remembers are bounded: old rounds are forgotten, never wrong."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.kernel.bounded_cache import BoundedCache
from bot.kernel.config import QuizConfig
from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness, running_service


def test_the_least_recently_used_entry_goes_first() -> None:
    cache: BoundedCache[str, int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "b" is now the least recently used
    cache.put("c", 3)
    assert ("a" in cache, "b" in cache, "c" in cache) == (True, False, True)
    assert len(cache) == 2


@pytest.fixture
async def small_cache_quiz(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog
) -> AsyncIterator[QuizHarness]:
    config = QuizConfig(default_schedule=None, round_cache_size=2)
    async with running_service(db_path, [platform], clock, catalog, config) as service:
        yield QuizHarness(service, platform, clock)


async def test_many_rounds_keep_the_engine_caches_bounded(small_cache_quiz: QuizHarness) -> None:
    quiz = small_cache_quiz
    for number in range(6):
        await quiz.command("now")
        await quiz.answer(f"member{number}", "an answer")  # caches the thread, queues follow-ups
    engine = quiz.service.engine
    assert len(engine._round_by_thread) <= 2
    assert len(engine._follow_ups_queued) <= 2
    thread = await quiz.thread()
    # The open round still answers and gets its follow-ups once.
    await quiz.answer("late", "another answer")
    assert len(await quiz.service.store.answers.round_answers((await quiz.round()).id)) == 2
    assert quiz.platform.titles(thread).count(quiz.platform.titles(thread)[0]) == 1
