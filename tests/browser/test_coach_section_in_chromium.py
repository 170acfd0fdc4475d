"""The coach's section of the lead's page in a real browser: with the coach on, headless
Chromium shows its agreement with teammates' reviews, the stand-in rule and the month's
spending, and the page still asks for nothing outside the bot. Skipped, naming what is
missing, where no Chromium is installed."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.coach_transport import AiohttpChatTransport
from adapters.ops.health import start_health_server
from adapters.ops.metrics import PrometheusMetrics
from bot.service import QuizService
from tests.browser.chromium import Browser, browser
from tests.browser.test_pages_in_chromium import CHROMIUM, free_port
from tests.core.coach.scripted_endpoint import scripted_endpoint
from tests.core.coaching.coached import coached_catalog, setup_for
from tests.core.dashboard.team import dashboard_config, link_of
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness
from tests.storage.backends import open_store

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium: install Debian's chromium (apt-get install chromium) or set"
    " QUIZBOT_TEST_CHROMIUM to a Chromium executable",
)


@pytest.fixture
async def chromium() -> AsyncIterator[Browser]:
    assert CHROMIUM is not None
    async with browser(CHROMIUM) as running:
        yield running


async def test_the_coachs_section_in_chromium(
    tmp_path: Path, platform: FakePlatform, clock: FakeClock, chromium: Browser
) -> None:
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    async with (
        scripted_endpoint() as endpoint,
        AiohttpChatTransport() as transport,
        open_store("sqlite", tmp_path) as store,
    ):
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=coached_catalog(),
            clock=clock,
            config=dashboard_config(dashboard_url=origin, default_schedule=None),
            rng=random.Random(7),
            background=False,
            coach=setup_for(endpoint, transport),
        )
        await service.start()
        metrics = PrometheusMetrics(store.outbox, clock=clock)
        server = await start_health_server(
            port, store.meta, [], metrics, dashboard=service.core.dashboard
        )
        try:
            quiz = QuizHarness(service, platform, clock)
            await quiz.command("now")
            await quiz.command("config coach on")
            tab = await chromium.new_tab()

            page = await tab.open(link_of(await quiz.command("dashboard")), origin)

            assert page.status == 200
            assert "Answer coach" in page.text
            assert "Stand-in rule" in page.text and "not met" in page.text
            assert "Tokens this month (workspace)" in page.text
            assert "Acceptance is shown once 3 members have decided" in page.text
            assert page.blocked == [] and all(u.startswith(origin) for u in page.requests)
            await tab.close()
        finally:
            await server.close()
            await service.stop()
