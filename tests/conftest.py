"""Shared fixtures: a fake clock, a FakePlatform and a running QuizService (``quiz``)."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.kernel.config import QuizConfig
from questions.catalog import Catalog
from questions.pack import Pack
from storage.sqlite_store import DEFAULT_BUSY_TIMEOUT_MS
from tests.fakes import FakeClock, FakePlatform

# hooks: a test, fixture or teardown that hangs fails with its tasks
from tests.hang_watch import (  # noqa: F401
    pytest_runtest_call,
    pytest_runtest_setup,
    pytest_runtest_teardown,
)
from tests.harness import QuizHarness, running_service


@pytest.fixture(autouse=True)
def _heap_unfrozen() -> Iterator[None]:
    """A test that runs the whole bot freezes the test process's heap as the bot does its
    own (adapters.ops.heap); the next test starts with it collectable again."""
    yield
    if gc.get_freeze_count():
        gc.unfreeze()


# Monday 2026-11-30 08:00 UTC
START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def sample_pack() -> Pack:
    def q(qid: str, topic: str, follow_ups: list[str]) -> dict[str, object]:
        return {
            "id": qid,
            "topic": topic,
            "question": f"Question {qid}?",
            "outline": f"Outline of {qid}.",
            "follow_ups": follow_ups,
        }

    return Pack.model_validate(
        {
            "id": "sample",
            "title": "Sample pack",
            "questions": [
                q("gpu-1", "gpu", ["Follow-up gpu-1 a?", "Follow-up gpu-1 b?"]),
                q("gpu-2", "gpu", ["Follow-up gpu-2?"]),
                q("net-1", "networking", ["Follow-up net-1?"]),
                q("net-2", "networking", []),
                q("mem-1", "memory", ["Follow-up mem-1?"]),
            ],
        }
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def platform() -> FakePlatform:
    return FakePlatform()


@pytest.fixture
def catalog() -> Catalog:
    return Catalog([sample_pack()])


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "quiz.db"


@pytest.fixture
def config() -> QuizConfig:
    return QuizConfig(default_schedule=None)


@pytest.fixture
def busy_timeout_ms() -> int:
    """The store's busy timeout; a module testing a locked database overrides it."""
    return DEFAULT_BUSY_TIMEOUT_MS


@pytest.fixture
async def quiz(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    config: QuizConfig,
    busy_timeout_ms: int,
) -> AsyncIterator[QuizHarness]:
    async with running_service(
        db_path, [platform], clock, catalog, config, busy_timeout_ms=busy_timeout_ms
    ) as service:
        yield QuizHarness(service, platform, clock)
