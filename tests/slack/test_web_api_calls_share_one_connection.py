"""Web API calls reuse one HTTP session and its keep-alive connection (no new TCP
connection and TLS handshake per call), and stopping the platform closes it."""

from __future__ import annotations

from adapters.slack.connector import SlackPlatform
from tests.slack.fake_slack import FakeSlack


async def test_two_web_api_calls_share_one_connection(
    slack: SlackPlatform, fake_slack: FakeSlack
) -> None:
    await slack.client.auth_test()
    await slack.client.chat_postMessage(channel="C1", text="hello")
    assert fake_slack.calls == ["auth.test", "chat.postMessage"]
    first, second = fake_slack.peers
    assert first == second, "each call opened a connection of its own"


async def test_stopping_the_platform_closes_its_session(
    slack: SlackPlatform, fake_slack: FakeSlack
) -> None:
    await slack.client.auth_test()
    session = slack.client.session
    assert session is not None and not session.closed
    await slack.stop()
    assert session.closed
    await slack.client.auth_test()  # a late send after stop still goes out
    assert fake_slack.calls == ["auth.test", "auth.test"]
