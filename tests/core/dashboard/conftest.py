"""The dashboard's tests run on both store backends, with the pages served at a test URL."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import QuizService
from questions.catalog import Catalog
from tests.core.dashboard.team import dashboard_config
from tests.core.reviews.test_peer_reviews import catalog_with_key_points
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness
from tests.storage.backends import BACKENDS, open_store


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture(params=BACKENDS)
async def quiz(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
) -> AsyncIterator[QuizHarness]:
    async with open_store(request.param, tmp_path) as store:
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=catalog,
            clock=clock,
            config=dashboard_config(),
            rng=random.Random(7),
            background=False,
        )
        await service.start()
        try:
            yield QuizHarness(service, platform, clock)
        finally:
            await service.stop()
