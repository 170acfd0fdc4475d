"""Slack installs through bolt's OAuth flow, kept in the quiz's database with the bot token
encrypted (the raw row never holds it), one installation per workspace."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml
from cryptography.fernet import Fernet
from slack_bolt.oauth.async_oauth_flow import AsyncOAuthFlow
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.installations import (
    BOT_SCOPES,
    DatabaseInstallationStore,
    TokenSeal,
    oauth_settings,
)
from bot.settings import SettingsError
from storage.sqlite.store import SqliteStore
from tests.slack.fake_slack import FakeSlack

KEY = Fernet.generate_key().decode()
MANIFEST = Path(__file__).resolve().parents[2] / "deploy" / "slack-manifest.yml"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore.open(db_path) as opened:
        yield opened


@pytest.fixture
def flow(fake_slack: FakeSlack, store: SqliteStore) -> AsyncOAuthFlow:
    settings = oauth_settings(
        client_id=fake_slack.client_id,
        client_secret=fake_slack.client_secret,
        redirect_uri="https://quiz.example/slack/oauth_redirect",
        store=store.installations,
        seal=TokenSeal(KEY),
    )
    return AsyncOAuthFlow(client=AsyncWebClient(base_url=fake_slack.api_url), settings=settings)


async def install(flow: AsyncOAuthFlow, fake: FakeSlack, team: str, name: str) -> int:
    """A member opens /slack/install, approves on Slack, and comes back with a code."""
    page = await flow.handle_installation(AsyncBoltRequest(body="", query="", headers={}))
    assert page.status == 200
    cookie = page.headers["set-cookie"][0].split(";")[0]
    authorize_url = page.body.split('href="https://slack.com/oauth/v2/authorize')[1]
    authorize_url = authorize_url.split('"')[0].replace("&amp;", "&")
    query = parse_qs(urlsplit(authorize_url).query)
    assert query["scope"] == [",".join(BOT_SCOPES)]
    code = f"code-{team}"
    fake.grant(code, team, name)
    redirect = AsyncBoltRequest(
        body="", query=f"code={code}&state={query['state'][0]}", headers={"cookie": cookie}
    )
    return (await flow.handle_callback(redirect)).status


async def test_an_install_keeps_the_bot_token_encrypted_in_the_database(
    flow: AsyncOAuthFlow, fake_slack: FakeSlack, store: SqliteStore, db_path: Path
) -> None:
    assert await install(flow, fake_slack, "T0FIRST", "First") == 200

    [token] = fake_slack.workspace_tokens
    conn = sqlite3.connect(db_path)
    try:
        rows = conn.execute("SELECT * FROM slack_installations").fetchall()
    finally:
        conn.close()
    assert len(rows) == 1
    assert rows[0][0] == "T0FIRST"
    assert not any(token in str(column) for column in rows[0])
    assert not any("xoxb-" in str(column) for column in rows[0])
    installations = DatabaseInstallationStore(store.installations, TokenSeal(KEY))
    assert await installations.bot_token("T0FIRST") == token


async def test_each_workspace_gets_its_own_token_and_an_uninstall_forgets_one(
    flow: AsyncOAuthFlow, fake_slack: FakeSlack, store: SqliteStore
) -> None:
    assert await install(flow, fake_slack, "T0FIRST", "First") == 200
    assert await install(flow, fake_slack, "T0SECOND", "Second") == 200
    installations = DatabaseInstallationStore(store.installations, TokenSeal(KEY))

    first = await installations.bot_token("T0FIRST")
    second = await installations.bot_token("T0SECOND")
    assert first is not None and second is not None
    assert fake_slack.workspace_tokens == {first: "T0FIRST", second: "T0SECOND"}
    await installations.async_delete_all(enterprise_id=None, team_id="T0FIRST")
    assert await installations.bot_token("T0FIRST") is None
    assert await installations.bot_token("T0SECOND") == second


async def test_a_redirect_without_a_state_we_issued_installs_nothing(
    flow: AsyncOAuthFlow, fake_slack: FakeSlack, store: SqliteStore
) -> None:
    fake_slack.grant("code-x", "T0EVIL", "Evil")
    forged = AsyncBoltRequest(
        body="",
        query="code=code-x&state=made-up",
        headers={"cookie": "slack-app-oauth-state=made-up"},
    )
    assert (await flow.handle_callback(forged)).status == 401
    assert await store.installations.find_installation("T0EVIL") is None
    assert fake_slack.count("oauth.v2.access") == 0


async def test_a_state_is_good_once(store: SqliteStore, flow: AsyncOAuthFlow) -> None:
    state_store = flow.settings.state_store
    state = await state_store.async_issue()
    assert await state_store.async_consume(state)
    assert not await state_store.async_consume(state)


def test_a_key_that_is_no_fernet_key_is_a_clear_error() -> None:
    with pytest.raises(SettingsError) as caught:
        TokenSeal("not-a-key")
    assert "QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY must be a Fernet key" in str(caught.value)
    sealed = TokenSeal(KEY).seal("xoxb-secret")
    with pytest.raises(SettingsError) as changed:
        TokenSeal(Fernet.generate_key().decode()).open(sealed)
    assert "xoxb-secret" not in str(changed.value)
    assert "was the key changed?" in str(changed.value)


def test_an_install_asks_for_the_manifests_scopes() -> None:
    manifest = yaml.safe_load(MANIFEST.read_text())
    assert tuple(manifest["oauth_config"]["scopes"]["bot"]) == BOT_SCOPES
