"""``quiz_on_both``: the harness over both store backends. A test module that names it its
``quiz`` fixture runs each of its tests on SQLite, then on PostgreSQL (skipped, naming the
URL, when no server answers)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness, harness_on
from tests.storage.backends import BACKENDS


@pytest.fixture(params=BACKENDS)
async def quiz_on_both(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
) -> AsyncIterator[QuizHarness]:
    """The service over SQLite, then over PostgreSQL."""
    async with harness_on(request.param, tmp_path, platform, clock, catalog) as harness:
        yield harness
