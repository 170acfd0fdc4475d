"""``GET /slack/install`` needs no authentication and stores a one-time OAuth state each
time; the states expire with bolt's ``expiration_seconds`` (the state cookie's lifetime),
expired ones are pruned as new ones are written, and at most ``MAX_PENDING_STATES`` wait at
once, so a flood of install pages leaves a bounded number of rows, on both backends."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from slack_bolt.oauth.async_oauth_flow import AsyncOAuthFlow
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.installations import MAX_PENDING_STATES
from adapters.slack.installs import create_installs
from tests.fakes import FakeClock
from tests.slack.fake_slack import FakeSlack
from tests.slack.test_many_workspaces import install_settings
from tests.storage.backends import BACKENDS, open_store
from tests.store_reads import oauth_state_count

REQUESTS = 1_000


def no_client(token: str | None, pacer: Any) -> Any:
    raise AssertionError("an install page makes no Web API call")


async def install_page(flow: AsyncOAuthFlow) -> tuple[str, str]:
    """What the browser gets from /slack/install: the state cookie and the state."""
    page = await flow.handle_installation(AsyncBoltRequest(body="", query="", headers={}))
    assert page.status == 200
    cookie = page.headers["set-cookie"][0].split(";")[0]
    link = page.body.split('href="https://slack.com/oauth/v2/authorize')[1].split('"')[0]
    [state] = parse_qs(urlsplit(link.replace("&amp;", "&")).query)["state"]
    return cookie, state


async def come_back(flow: AsyncOAuthFlow, fake: FakeSlack, page: tuple[str, str]) -> int:
    """The installer approves on Slack's page and Slack sends the browser back."""
    cookie, state = page
    code = f"code-{state[:8]}"
    fake.grant(code, "T0NEW", "New")
    redirect = AsyncBoltRequest(
        body="", query=f"code={code}&state={state}", headers={"cookie": cookie}
    )
    return (await flow.handle_callback(redirect)).status


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_thousand_install_pages_leave_a_bounded_number_of_states(
    backend: str, tmp_path: Path, fake_slack: FakeSlack, clock: FakeClock
) -> None:
    async with open_store(backend, tmp_path) as store:
        installs = create_installs(
            install_settings(fake_slack),
            store.installations,  # type: ignore[attr-defined]
            no_client,
            workspace_rate=None,
            now=clock.now,
        )
        flow = installs.flow(AsyncWebClient(base_url=fake_slack.api_url))
        settings = flow.settings
        # the state lasts as long as bolt's state cookie
        lifetime = settings.state_store.expiration_seconds  # type: ignore[attr-defined]
        assert lifetime == settings.state_expiration_seconds == 600

        first = await install_page(flow)
        pages = []
        for _ in range(REQUESTS - 1):
            clock.advance(milliseconds=1)
            pages.append(await install_page(flow))
        assert await oauth_state_count(store) <= MAX_PENDING_STATES
        # the newest installs in progress still finish; the oldest gave way
        assert await come_back(flow, fake_slack, pages[-1]) == 200
        assert await come_back(flow, fake_slack, first) == 401

        clock.advance(seconds=lifetime)
        late = await install_page(flow)
        assert await oauth_state_count(store) == 1  # the expired ones were pruned
        assert await come_back(flow, fake_slack, pages[-2]) == 401  # expired
        assert await come_back(flow, fake_slack, late) == 200
