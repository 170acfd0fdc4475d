"""Fixtures: a fake Slack Web API, the Slack platform pointed at it, and a running quiz."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import pytest
from pydantic import SecretStr

from adapters.slack.connector import SlackPlatform
from adapters.slack.factory import create_slack_platform
from adapters.slack.settings import SlackSettings
from bot.kernel.config import QuizConfig
from questions.catalog import Catalog
from tests.fakes import FakeClock
from tests.slack.driver import ADMIN, LISTED_ADMIN, SlackQuiz, running_slack_quiz
from tests.slack.fake_slack import BOT_TOKEN, FakeSlack
from tests.slack.signed import SIGNING_SECRET


@pytest.fixture
async def fake_slack(clock: FakeClock) -> AsyncIterator[FakeSlack]:
    # Message timestamps follow the quiz's clock, as Slack's follow real time.
    fake = FakeSlack(
        users={ADMIN: {"is_admin": True, "name": "Ada"}}, ts_base=clock.now().timestamp()
    )
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
def slack_settings(fake_slack: FakeSlack) -> SlackSettings:
    return SlackSettings(
        _env_file=None,  # type: ignore[call-arg]
        slack_bot_token=SecretStr(BOT_TOKEN),
        slack_signing_secret=SecretStr(SIGNING_SECRET),
        slack_api_url=fake_slack.api_url,
        slack_admins=[LISTED_ADMIN],
    )


@pytest.fixture
async def slack(slack_settings: SlackSettings) -> AsyncIterator[SlackPlatform]:
    platform = create_slack_platform(
        slack_settings, http=True, host="127.0.0.1", port=0, post_interval=0, workspace_rate=None
    )
    try:
        yield platform
    finally:
        await platform.stop()


StartSlackQuiz = Callable[[], AbstractAsyncContextManager[SlackQuiz]]


@pytest.fixture
def start_slack_quiz(
    db_path: Path,
    slack_settings: SlackSettings,
    fake_slack: FakeSlack,
    clock: FakeClock,
    catalog: Catalog,
    config: QuizConfig,
    busy_timeout_ms: int,
) -> StartSlackQuiz:
    """Starts a quiz process on Slack; call it again after the first ended for a restart."""
    return lambda: running_slack_quiz(
        db_path,
        slack_settings,
        fake_slack,
        clock,
        catalog,
        config,
        busy_timeout_ms=busy_timeout_ms,
    )


@pytest.fixture
async def slack_quiz(start_slack_quiz: StartSlackQuiz) -> AsyncIterator[SlackQuiz]:
    async with start_slack_quiz() as quiz:
        yield quiz
