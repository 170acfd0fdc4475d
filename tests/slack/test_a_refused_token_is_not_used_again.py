"""When Slack refuses a workspace's bot token (``invalid_auth``, ``account_inactive``,
``token_revoked``), the workspace's cached client is dropped and the refused token is not
tried again: the next call reads the installation again, so a reinstall handled by
another replica is picked up at once, and no token reaches the log."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from slack_sdk.oauth.installation_store.models.bot import Bot

from adapters.slack.installations import DatabaseInstallationStore, TokenSeal
from bot.kernel.config import QuizConfig
from questions.catalog import Catalog
from tests.fakes import FakeClock
from tests.slack.driver import ADMIN
from tests.slack.fake_slack import BOT_ID, BOT_USER, FakeSlack
from tests.slack.signed import FORM, bolt_request, command_body
from tests.slack.test_many_workspaces import CHANNELS, FIRST, KEY, Hosted, hosted_quiz


@pytest.fixture
async def hosted(
    db_path: Path, fake_slack: FakeSlack, clock: FakeClock, catalog: Catalog, config: QuizConfig
) -> AsyncIterator[Hosted]:
    async with hosted_quiz(db_path, fake_slack, clock, catalog, config) as quiz:
        yield quiz


def questions(hosted: Hosted) -> int:
    return sum((m.key or "").endswith(":question") for m in hosted.fake.posts(CHANNELS[FIRST]))


async def reinstall_on_another_replica(hosted: Hosted, team: str) -> str:
    """The workspace installs the app again through another replica: a new token in the
    shared database, and no word of it to this process."""
    token = f"xoxb-{team}-from-another-replica"
    hosted.fake.workspace_tokens[token] = team
    other = DatabaseInstallationStore(hosted.store.installations, TokenSeal(KEY))
    await other.async_save_bot(
        Bot(
            app_id="A0QUIZ",
            team_id=team,
            team_name=team.title(),
            bot_token=token,
            bot_id=BOT_ID,
            bot_user_id=BOT_USER,
            installed_at=hosted.clock.now().timestamp(),
        )
    )
    return token


@pytest.mark.parametrize("error", ["invalid_auth", "account_inactive", "token_revoked"])
async def test_a_refused_token_is_dropped_and_a_reinstall_elsewhere_is_used(
    hosted: Hosted,
    clock: FakeClock,
    config: QuizConfig,
    caplog: pytest.LogCaptureFixture,
    error: str,
) -> None:
    assert (await hosted.install(FIRST))[0] == 200
    await hosted.command(FIRST, "schedule daily 09:00")
    [old] = hosted.fake.workspace_tokens
    hosted.fake.refuse(FIRST, error)
    channel = await hosted.channel(FIRST)

    with caplog.at_level(logging.DEBUG):
        await hosted.service.post_slot(channel.id, clock.now())
        await hosted.service.settle()
        assert hosted.fake.refusals == [("chat.postMessage", old)]
        clock.advance(seconds=config.max_retry_seconds)
        await hosted.service.settle()  # the outbox tries again: not with the refused token
        assert hosted.fake.refusals == [("chat.postMessage", old)]
        assert questions(hosted) == 0

        new = await reinstall_on_another_replica(hosted, FIRST)
        clock.advance(seconds=config.max_retry_seconds)
        await hosted.service.settle()

    assert questions(hosted) == 1, "the question did not go out with the reinstall's token"
    assert hosted.fake.refusals == [("chat.postMessage", old)]
    assert (await hosted.channel(FIRST)).disabled_reason is None
    assert any(error in r.getMessage() and FIRST in r.getMessage() for r in caplog.records)
    assert old not in caplog.text
    assert new not in caplog.text


async def test_a_command_from_a_workspace_whose_token_was_refused_asks_for_a_reinstall(
    hosted: Hosted, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    assert (await hosted.install(FIRST))[0] == 200
    await hosted.command(FIRST, "schedule daily 09:00")
    [old] = hosted.fake.workspace_tokens
    hosted.fake.refuse(FIRST)
    channel = await hosted.channel(FIRST)
    await hosted.service.post_slot(channel.id, clock.now())
    await hosted.service.settle()
    body = command_body(
        "leaderboard",
        user=ADMIN,
        channel=CHANNELS[FIRST],
        response_url=f"{hosted.fake.url}/response/1",
        team=FIRST,
    )

    with caplog.at_level(logging.DEBUG):
        answer = await hosted.slack.app.async_dispatch(bolt_request(body, content_type=FORM))

    assert hosted.fake.refusals == [("chat.postMessage", old)]
    assert answer.status == 200 and "reinstall" in str(answer.body)  # shown to the member
    assert old not in caplog.text
