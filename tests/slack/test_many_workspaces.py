"""Slack for many workspaces, through `quizbot run`'s HTTP server and the fake Slack: a
workspace installs the app at /slack/install, its bot token is kept sealed, everything
the bot does there uses that workspace's own token, and removing the app stops its
channels until it is installed again."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import aiohttp
import pytest
from cryptography.fernet import Fernet
from pydantic import SecretStr
from slack_bolt.response import BoltResponse

from adapters.slack.connector import SlackPlatform
from adapters.slack.factory import create_slack_platform
from adapters.slack.settings import SlackSettings
from bot.kernel.config import QuizConfig
from bot.kernel.errors import WORKSPACE_REMOVED
from bot.kernel.models import ChannelSettings
from bot.kernel.platform import Platform
from bot.kernel.refs import ChannelRef
from bot.service import QuizService
from questions.catalog import Catalog
from storage.sqlite.store import SqliteStore
from tests.fakes import FakeClock
from tests.harness import running_service
from tests.slack.driver import ADMIN, SlackQuiz
from tests.slack.fake_slack import BOT_TOKEN, TEAM, FakeSlack
from tests.slack.signed import FORM, JSON, SIGNING_SECRET, bolt_request, command_body, event_body

KEY = Fernet.generate_key().decode()
FIRST, SECOND = "T0FIRST", "T0SECOND"
CHANNELS = {FIRST: "C0FIRST", SECOND: "C0SECOND"}


@dataclass
class Hosted:
    """The quiz serving every workspace that installs it, over HTTP."""

    service: QuizService
    slack: SlackPlatform
    fake: FakeSlack
    store: SqliteStore
    base: str
    clock: FakeClock

    async def get(self, path: str, *, cookie: str = "") -> tuple[int, str, str]:
        """A browser's GET: the status, the page and the state cookie it sets."""
        headers = {"cookie": cookie} if cookie else {}
        async with (
            aiohttp.ClientSession() as session,
            session.get(self.base + path, headers=headers, allow_redirects=False) as answer,
        ):
            cookie_set = answer.headers.get("Set-Cookie", "").split(";")[0]
            return answer.status, await answer.text(), cookie_set

    async def install(self, team: str) -> tuple[int, str]:
        """A member opens /slack/install, approves on Slack's page, comes back with a code."""
        status, page, cookie = await self.get("/slack/install")
        assert status == 200
        state = _authorize_query(page)["state"][0]
        code = f"code-{team}"
        self.fake.grant(code, team, team.title())
        status, page, _ = await self.get(
            "/slack/oauth_redirect?" + urlencode({"code": code, "state": state}), cookie=cookie
        )
        return status, page

    async def command(self, team: str, text: str) -> None:
        body = command_body(
            text,
            user=ADMIN,
            channel=CHANNELS[team],
            response_url=f"{self.fake.url}/response/1",
            team=team,
        )
        await self.slack.app.async_dispatch(bolt_request(body, content_type=FORM))
        await self.slack.wait_idle()

    async def event(
        self,
        team: str,
        event: dict[str, Any],
        *,
        event_id: str | None = None,
        sent_at: datetime | None = None,
        retry_num: int | None = None,
    ) -> BoltResponse:
        """Deliver an event Slack sent at ``sent_at`` (default: now on the quiz's clock)."""
        moment = self.clock.now() if sent_at is None else sent_at
        body = event_body(event, team=team, event_id=event_id, event_time=int(moment.timestamp()))
        request = bolt_request(body, content_type=JSON, retry_num=retry_num)
        return await self.slack.app.async_dispatch(request)

    async def channel(self, team: str) -> ChannelSettings:
        found = await self.service.engine.channel(ChannelRef("slack", team, CHANNELS[team]))
        assert found is not None
        return found

    def question_ts(self, team: str) -> str:
        [question] = [
            m for m in self.fake.posts(CHANNELS[team]) if (m.key or "").endswith(":question")
        ]
        return question.ts


def _authorize_query(page: str) -> dict[str, list[str]]:
    link = page.split('href="https://slack.com/oauth/v2/authorize')[1].split('"')[0]
    return parse_qs(urlsplit(link.replace("&amp;", "&")).query)


def install_settings(fake: FakeSlack, **changes: Any) -> SlackSettings:
    values: dict[str, Any] = {
        "slack_client_id": fake.client_id,
        "slack_client_secret": SecretStr(fake.client_secret),
        "slack_token_encryption_key": SecretStr(KEY),
        "slack_signing_secret": SecretStr(SIGNING_SECRET),
        "slack_redirect_uri": "https://quiz.example/slack/oauth_redirect",
        "slack_api_url": fake.api_url,
        "slack_mode": "http",
        **changes,
    }
    return SlackSettings(_env_file=None, **values)  # type: ignore[call-arg]


@asynccontextmanager
async def hosted_quiz(
    db_path: Path, fake: FakeSlack, clock: FakeClock, catalog: Catalog, config: QuizConfig
) -> AsyncIterator[Hosted]:
    settings = install_settings(fake)
    stores: list[SqliteStore] = []

    def platforms(store: SqliteStore) -> list[Platform]:
        stores.append(store)
        return [
            create_slack_platform(
                settings,
                http=True,
                host="127.0.0.1",
                port=0,
                post_interval=0,
                workspace_rate=None,
                progress=store.unfinished_cards,
                installations=store.installations,
                clock=clock,
            )
        ]

    async with running_service(db_path, platforms, clock, catalog, config) as service:
        slack = service.platforms["slack"]
        assert isinstance(slack, SlackPlatform)
        slack.watch_installs(service)
        await slack.start(service.handle)
        try:
            assert slack.http_transport is not None
            base = f"http://127.0.0.1:{slack.http_transport.bound_port}"
            yield Hosted(service, slack, fake, stores[0], base, clock)
        finally:
            await slack.stop()


@pytest.fixture
async def hosted(
    db_path: Path, fake_slack: FakeSlack, clock: FakeClock, catalog: Catalog, config: QuizConfig
) -> AsyncIterator[Hosted]:
    async with hosted_quiz(db_path, fake_slack, clock, catalog, config) as quiz:
        yield quiz


async def test_an_install_keeps_the_token_sealed_and_the_workspace_is_served_with_it(
    hosted: Hosted, db_path: Path
) -> None:
    status, page = await hosted.install(FIRST)
    assert status == 200
    assert "Thank you!" in page
    [token] = hosted.fake.workspace_tokens
    conn = sqlite3.connect(db_path)
    try:
        rows = conn.execute("SELECT * FROM slack_installations").fetchall()
    finally:
        conn.close()
    assert [row[0] for row in rows] == [FIRST]
    assert not any(token in str(column) for column in rows[0])
    installed = await hosted.store.installations.find_installation(FIRST)
    assert installed is not None and installed.installed_at == hosted.clock.now()

    await hosted.command(FIRST, "now")
    await hosted.service.settle()
    assert hosted.question_ts(FIRST)  # the question went out
    assert set(hosted.fake.teams_of("chat.postMessage")) == {FIRST}
    assert BOT_TOKEN not in hosted.fake.workspace_tokens  # no bot token of the settings was used


async def test_two_workspaces_each_get_their_own_token_for_commands_and_events(
    hosted: Hosted,
) -> None:
    assert (await hosted.install(FIRST))[0] == 200
    assert (await hosted.install(SECOND))[0] == 200
    await hosted.command(FIRST, "now")
    await hosted.command(SECOND, "now")
    await hosted.service.settle()
    hosted.fake.calls_by.clear()

    # A 💡 in the second workspace reveals there, with the second workspace's token.
    question = hosted.question_ts(SECOND)
    answer = await hosted.event(
        SECOND,
        {
            "type": "reaction_added",
            "user": "U0MEMBER",
            "reaction": "bulb",
            "item": {"type": "message", "channel": CHANNELS[SECOND], "ts": question},
        },
    )
    assert answer.status == 200
    await hosted.service.settle()
    outline = hosted.fake.posts(CHANNELS[SECOND], thread=question)
    assert outline, "the reveal posted nothing"
    assert set(hosted.fake.teams_of("chat.postMessage")) == {SECOND}
    assert hosted.fake.posts(CHANNELS[FIRST], thread=hosted.question_ts(FIRST)) == []


async def test_an_event_from_a_workspace_without_an_install_does_nothing(hosted: Hosted) -> None:
    await hosted.install(FIRST)
    answer = await hosted.event(
        SECOND,
        {"type": "message", "channel": CHANNELS[SECOND], "user": "U1", "text": "hi", "ts": "1.1"},
    )
    assert answer.status == 200
    assert await hosted.service.store.channels.list_channels() == []
    assert hosted.fake.count("chat.postMessage") == 0


async def test_removing_the_app_stops_the_workspace_until_it_is_installed_again(
    hosted: Hosted, clock: FakeClock
) -> None:
    await hosted.install(FIRST)
    await hosted.install(SECOND)
    await hosted.command(FIRST, "schedule daily 09:00")
    await hosted.command(SECOND, "schedule daily 09:00")
    await hosted.service.settle()
    await hosted.command(FIRST, "now")  # queued, not yet sent when the app is removed
    posts_before = len(hosted.fake.posts(CHANNELS[FIRST]))

    uninstalled = {"type": "app_uninstalled"}
    assert (await hosted.event(FIRST, uninstalled)).status == 200
    assert (await hosted.event(FIRST, uninstalled)).status == 200  # a redelivery: no harm
    hosted.fake.revoke(FIRST)

    first = await hosted.channel(FIRST)
    assert first.disabled_reason == WORKSPACE_REMOVED
    assert (await hosted.channel(SECOND)).disabled_reason is None
    assert await hosted.store.installations.find_installation(FIRST) is None
    await hosted.service.settle()
    await hosted.service.post_slot(first.id, clock.now())
    await hosted.service.settle()
    assert len(hosted.fake.posts(CHANNELS[FIRST])) == posts_before  # nothing more went out
    second = await hosted.channel(SECOND)
    await hosted.service.post_slot(second.id, clock.now())
    await hosted.service.settle()
    assert any((m.key or "").endswith(":question") for m in hosted.fake.posts(CHANNELS[SECOND]))

    assert (await hosted.install(FIRST))[0] == 200
    assert (await hosted.channel(FIRST)).disabled_reason is None
    clock.advance(days=1)
    await hosted.service.post_slot(first.id, clock.now())
    await hosted.service.settle()
    assert len(hosted.fake.posts(CHANNELS[FIRST])) > posts_before


async def test_a_revoked_bot_token_stops_the_workspace_and_a_user_token_does_not(
    hosted: Hosted,
) -> None:
    await hosted.install(FIRST)
    await hosted.command(FIRST, "schedule daily 09:00")

    users_only = {"type": "tokens_revoked", "tokens": {"oauth": ["U0INSTALLER"], "bot": []}}
    assert (await hosted.event(FIRST, users_only)).status == 200
    assert (await hosted.channel(FIRST)).disabled_reason is None

    bot = {"type": "tokens_revoked", "tokens": {"bot": ["U0BOT"]}}
    assert (await hosted.event(FIRST, bot)).status == 200
    assert (await hosted.channel(FIRST)).disabled_reason == WORKSPACE_REMOVED
    assert await hosted.store.installations.find_installation(FIRST) is None


@pytest.mark.parametrize(
    ("query", "status", "says"),
    [
        ({"code": "code-x", "state": "made-up"}, 401, "expired"),
        ({"error": "access_denied"}, 200, "cancelled"),
        ({"code": "never-granted", "state": None}, 401, "did not accept the authorization code"),
    ],
)
async def test_a_failed_install_gets_a_page_that_says_what_to_do(
    hosted: Hosted, query: dict[str, str | None], status: int, says: str
) -> None:
    _, page, cookie = await hosted.get("/slack/install")
    issued = _authorize_query(page)["state"][0]
    if query.get("state") is None and "state" in query:
        query = {**query, "state": issued}  # a state we issued, with a code Slack never gave
    else:
        cookie = "slack-app-oauth-state=made-up" if "state" in query else cookie
    answer_status, answer_page, _ = await hosted.get(
        "/slack/oauth_redirect?" + urlencode({k: v for k, v in query.items() if v}),
        cookie=cookie,
    )
    assert answer_status == status
    assert "quizbot was not installed" in answer_page
    assert says in answer_page
    assert "/slack/install" in answer_page
    assert await hosted.store.installations.find_installation(FIRST) is None
    assert hosted.fake.workspace_tokens == {}


async def test_with_one_bot_token_there_is_no_install_page_and_removal_is_only_logged(
    slack_quiz: SlackQuiz,
) -> None:
    slack = slack_quiz.slack
    assert slack.http_transport is not None
    url = f"http://127.0.0.1:{slack.http_transport.bound_port}/slack/install"
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        assert answer.status in (404, 405)
    await slack_quiz.command("schedule daily 09:00")
    assert (await slack_quiz.event({"type": "app_uninstalled"})).status == 200
    channel = await slack_quiz.service.engine.channel(ChannelRef("slack", TEAM, slack_quiz.channel))
    assert channel is not None
    assert channel.disabled_reason is None


async def test_the_oauth_code_of_an_install_is_never_logged(
    hosted: Hosted, caplog: pytest.LogCaptureFixture
) -> None:
    """The code Slack's redirect carries buys a bot token (with the client secret): neither
    a refused exchange (bolt names the code in its warning) nor a granted one (the Web API
    client lists a request's fields at DEBUG) may write it to the log."""
    status, page, cookie = await hosted.get("/slack/install")
    refused = "9163.4472.refusedcode0000"
    with caplog.at_level(logging.DEBUG):
        status, page, _ = await hosted.get(
            "/slack/oauth_redirect?"
            + urlencode({"code": refused, "state": _authorize_query(page)["state"][0]}),
            cookie=cookie,
        )
        assert status == 401
        assert (await hosted.install(FIRST))[0] == 200
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "oauth.v2.access" in logged  # both exchanges were logged, without their codes
    assert refused not in logged
    assert f"code-{FIRST}" not in logged
