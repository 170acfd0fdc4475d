"""Socket Mode: the app token opens a WebSocket; envelopes are dispatched and acknowledged."""

from __future__ import annotations

import asyncio
import json

import pytest
from pydantic import SecretStr

from adapters.slack.factory import create_slack_platform
from adapters.slack.settings import SlackSettings
from bot.kernel.errors import PlatformError
from bot.kernel.events import Event, Reaction
from bot.kernel.render import Response
from tests.slack.fake_slack import APP_TOKEN, BOT_TOKEN, FakeSlack
from tests.slack.signed import event_body


def _settings(fake: FakeSlack, app_token: str = APP_TOKEN) -> SlackSettings:
    return SlackSettings(
        _env_file=None,  # type: ignore[call-arg]
        slack_bot_token=SecretStr(BOT_TOKEN),
        slack_app_token=SecretStr(app_token),
        slack_api_url=fake.api_url,
    )


async def test_events_arrive_over_socket_mode_with_their_event_id(fake_slack: FakeSlack) -> None:
    received: list[Event] = []

    async def handler(event: Event) -> Response | None:
        received.append(event)
        return None

    platform = create_slack_platform(_settings(fake_slack))
    await platform.start(handler)
    try:
        await asyncio.wait_for(fake_slack.socket_connected.wait(), timeout=5)
        assert platform.connected
        body = json.loads(
            event_body(
                {
                    "type": "reaction_added",
                    "user": "U1",
                    "reaction": "bulb",
                    "item": {"type": "message", "channel": "C1", "ts": "1.0"},
                },
                event_id="Ev0SOCKET",
            )
        )
        ack = await fake_slack.push(
            {
                "envelope_id": "env-1",
                "type": "events_api",
                "accepts_response_payload": False,
                "retry_attempt": 1,
                "retry_reason": "timeout",
                "payload": body,
            }
        )
        assert ack == {"envelope_id": "env-1"}
        [event] = received
        assert isinstance(event, Reaction)
        assert (event.event_id, event.emoji) == ("Ev0SOCKET", "💡")
    finally:
        await platform.stop()
    assert not platform.connected


async def test_a_wrong_app_token_fails_start_clearly(fake_slack: FakeSlack) -> None:
    async def handler(event: Event) -> Response | None:
        return None

    platform = create_slack_platform(_settings(fake_slack, app_token="xapp-wrong"))
    with pytest.raises(PlatformError, match=r"apps\.connections\.open: invalid_auth"):
        await platform.start(handler)
    assert not platform.connected
    await platform.stop()  # as quizbot run does after a failed start: closes the session
