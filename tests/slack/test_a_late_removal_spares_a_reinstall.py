"""Slack delivers an event again when its first delivery was not answered in time, so an
``app_uninstalled`` (or the bot's ``tokens_revoked``) can arrive after the workspace has
installed the app again. It removes only an installation older than the event: the
reinstall stays, its channels keep their quiz, and the log says what was ignored."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.kernel.config import QuizConfig
from bot.kernel.errors import WORKSPACE_REMOVED
from questions.catalog import Catalog
from tests.fakes import FakeClock
from tests.slack.fake_slack import FakeSlack
from tests.slack.test_many_workspaces import CHANNELS, FIRST, Hosted, hosted_quiz

REMOVALS = [
    pytest.param({"type": "app_uninstalled"}, id="app_uninstalled"),
    pytest.param({"type": "tokens_revoked", "tokens": {"bot": ["U0BOT"]}}, id="tokens_revoked"),
]


@pytest.fixture
async def hosted(
    db_path: Path, fake_slack: FakeSlack, clock: FakeClock, catalog: Catalog, config: QuizConfig
) -> AsyncIterator[Hosted]:
    async with hosted_quiz(db_path, fake_slack, clock, catalog, config) as quiz:
        yield quiz


def questions(hosted: Hosted) -> int:
    return sum((m.key or "").endswith(":question") for m in hosted.fake.posts(CHANNELS[FIRST]))


@pytest.mark.parametrize("removal", REMOVALS)
async def test_a_removal_redelivered_after_a_reinstall_leaves_the_new_install(
    hosted: Hosted, clock: FakeClock, caplog: pytest.LogCaptureFixture, removal: dict[str, Any]
) -> None:
    assert (await hosted.install(FIRST))[0] == 200
    await hosted.command(FIRST, "schedule daily 09:00")
    clock.advance(minutes=5)
    removed_at = clock.now()
    answer = await hosted.event(FIRST, removal, event_id="Ev0REMOVED", sent_at=removed_at)
    assert answer.status == 200
    hosted.fake.revoke(FIRST)
    assert (await hosted.channel(FIRST)).disabled_reason == WORKSPACE_REMOVED

    clock.advance(minutes=5)
    reinstalled_at = clock.now()
    assert (await hosted.install(FIRST))[0] == 200
    [token] = hosted.fake.workspace_tokens
    clock.advance(minutes=1)
    with caplog.at_level(logging.DEBUG):
        late = await hosted.event(
            FIRST, removal, event_id="Ev0REMOVED", sent_at=removed_at, retry_num=1
        )
    assert late.status == 200

    installed = await hosted.store.installations.find_installation(FIRST)
    assert installed is not None, "the late removal deleted the reinstall"
    assert installed.installed_at == reinstalled_at
    channel = await hosted.channel(FIRST)
    assert channel.disabled_reason is None
    before = questions(hosted)
    await hosted.service.post_slot(channel.id, clock.now())
    await hosted.service.settle()
    assert questions(hosted) == before + 1  # posted with the reinstall's token
    ignored = [
        r for r in caplog.records if r.levelno == logging.INFO and "Ev0REMOVED" in r.getMessage()
    ]
    assert ignored, "the ignored removal was not logged"
    assert "installed again" in ignored[0].getMessage()
    assert token not in caplog.text


async def test_a_removal_sent_after_the_install_still_removes_it_within_the_same_second(
    hosted: Hosted, clock: FakeClock
) -> None:
    """Slack's event_time has whole seconds: an install earlier in the same second is
    still the one removed."""
    clock.advance(seconds=0.4)
    assert (await hosted.install(FIRST))[0] == 200
    await hosted.command(FIRST, "schedule daily 09:00")
    clock.advance(seconds=0.3)
    assert (await hosted.event(FIRST, {"type": "app_uninstalled"})).status == 200
    assert await hosted.store.installations.find_installation(FIRST) is None
    assert (await hosted.channel(FIRST)).disabled_reason == WORKSPACE_REMOVED
