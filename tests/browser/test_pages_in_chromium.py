"""The pages of ``/quiz dashboard`` in a real browser: headless Chromium loads the lead's
page and a member's page from the bot's own web server on a test database, the tests read
what the browser shows, check that a changed or expired link gets 403 and that the page
asked for nothing outside the bot, and keep screenshots (in a temporary directory, or in
QUIZBOT_TEST_SCREENSHOTS) checked by what they show, not by their pixels.

Skipped, naming what is missing, where no Chromium is installed (``.ci/run`` installs
Debian's ``chromium`` where it can)."""

from __future__ import annotations

import os
import random
import socket
import struct
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from adapters.ops.health import HealthServer, start_health_server
from adapters.ops.metrics import PrometheusMetrics
from bot.service import QuizService
from questions.catalog import Catalog
from tests.browser.chromium import Browser, browser, chromium_path
from tests.core.dashboard.team import TEAM, dashboard_config, link_of, seed_team
from tests.core.reviews.test_peer_reviews import catalog_with_key_points
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness
from tests.storage.backends import BACKENDS, open_store

CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium: install Debian's chromium (apt-get install chromium) or set"
    " QUIZBOT_TEST_CHROMIUM to a Chromium executable",
)


@dataclass
class Served:
    quiz: QuizHarness
    origin: str
    shots: Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    kept = os.environ.get("QUIZBOT_TEST_SCREENSHOTS")
    folder = Path(kept) if kept else tmp_path / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(params=BACKENDS)
async def served(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    shots: Path,
) -> AsyncIterator[Served]:
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    async with open_store(request.param, tmp_path) as store:
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=catalog,
            clock=clock,
            config=dashboard_config(dashboard_url=origin),
            rng=random.Random(7),
            background=False,
        )
        await service.start()
        server: HealthServer | None = None
        try:
            quiz = QuizHarness(service, platform, clock)
            await seed_team(quiz)
            metrics = PrometheusMetrics(store.outbox, clock=clock)
            server = await start_health_server(
                port, store.meta, [], metrics, dashboard=service.core.dashboard
            )
            yield Served(quiz, origin, shots)
        finally:
            if server is not None:
                await server.close()
            await service.stop()


@pytest.fixture
async def chromium() -> AsyncIterator[Browser]:
    assert CHROMIUM is not None
    async with browser(CHROMIUM) as running:
        yield running


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


async def test_the_leads_page_in_chromium(served: Served, chromium: Browser) -> None:
    await served.quiz.command("dashboard share on", by="carol")
    link = link_of(await served.quiz.command("dashboard"))
    tab = await chromium.new_tab()

    page = await tab.open(link, served.origin)

    assert page.status == 200
    csp = page.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src" not in csp
    for title in (
        "Participation per week",
        "Expected recall per topic",
        "Item analysis",
        "Mock interviews",
        "Schedule ahead",
    ):
        assert title in page.text
    assert page.text.count("Computed from:") == 5
    assert "all members (4)" in page.text and "members not sharing (3)" in page.text
    assert "Carol" in page.text and not any(n.title() in page.text for n in ("ann", "bob", "dan"))
    assert await tab.count("svg.heatmap rect.cell") >= 3
    assert await tab.count("svg.bars rect") >= 4
    assert await tab.count("script, iframe, link, img") == 0
    assert page.blocked == [] and all(u.startswith(served.origin) for u in page.requests)
    shot = await tab.screenshot(served.shots / "lead-page.png")
    width, height = png_size(shot)
    assert width >= 1000 and height > 900  # the whole page, longer than the window
    await tab.close()


async def test_a_members_page_in_chromium(served: Served, chromium: Browser) -> None:
    link = link_of(await served.quiz.command("dashboard me", by="bob"))
    tab = await chromium.new_tab()

    page = await tab.open(link, served.origin)

    assert page.status == 200
    assert "Bob: your quiz in #practice" in page.text
    for title in ("Your recall per topic", "Points and streak", "Your switches"):
        assert title in page.text
    assert "/quiz remind" in page.text and "/quiz notify" in page.text
    assert not any(name.title() in page.text for name in TEAM if name != "bob")
    assert await tab.count("svg.heatmap") == 1
    assert page.blocked == [] and all(u.startswith(served.origin) for u in page.requests)
    png_size(await tab.screenshot(served.shots / "member-page.png"))
    await tab.close()


async def test_a_changed_or_expired_link_gets_403_in_chromium(
    served: Served, chromium: Browser
) -> None:
    link = link_of(await served.quiz.command("dashboard me", by="bob"))
    tab = await chromium.new_tab()

    changed = await tab.open(link.replace("m=bob", "m=ann"), served.origin)
    assert changed.status == 403 and "Link not valid" in changed.text and "Ann" not in changed.text
    png_size(await tab.screenshot(served.shots / "changed-link.png"))

    served.quiz.clock.advance(minutes=61)
    expired = await tab.open(link, served.origin)
    assert expired.status == 403 and "expired" in expired.text
    await tab.close()


async def test_the_page_asks_for_nothing_outside_the_bot(served: Served, chromium: Browser) -> None:
    """Were the page to name an outside address, the interception would see and block it:
    the check is live (a page that does ask elsewhere is caught)."""
    tab = await chromium.new_tab()
    outside = await tab.open("data:text/html,<img src='http://example.invalid/x.png'>", "data:")
    assert outside.blocked == ["http://example.invalid/x.png"]

    link = link_of(await served.quiz.command("dashboard"))
    page = await tab.open(link, served.origin)
    assert page.requests and page.blocked == []
    await tab.close()
