"""Socket Mode at its edge: every envelope that needs an acknowledgement gets one.

Slack delivers an envelope again when it is not acknowledged, so an envelope the
quiz does not use, or one of an unexpected shape, is acknowledged and ignored
(with a debug line); one of an unexpected shape never reaches the core, so no
phantom member is created from ``"user": {"id": ...}``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import SecretStr

from adapters.slack.connector import SlackPlatform
from adapters.slack.factory import create_slack_platform
from adapters.slack.settings import SlackSettings
from bot.kernel.events import ButtonPress, Command, Event, Reaction, Reply
from bot.kernel.render import Response
from tests.slack.fake_slack import APP_TOKEN, BOT_TOKEN, TEAM, FakeSlack
from tests.slack.signed import event_body

ACK_TIMEOUT = 2.0


def _events_api(payload: Any) -> dict[str, Any]:
    return {"type": "events_api", "accepts_response_payload": False, "payload": payload}


def _event(event: Any, **envelope: Any) -> dict[str, Any]:
    body = json.loads(event_body({"type": "placeholder"}, event_id="Ev0SOCK"))
    body["event"] = event
    body.update(envelope)
    return _events_api(body)


def _command(**fields: Any) -> dict[str, Any]:
    payload = {
        "command": "/quiz",
        "text": "help",
        "team_id": TEAM,
        "channel_id": "C1",
        "user_id": "U1",
        "user_name": "u1",
        "trigger_id": "trigger.sock",
        "response_url": "http://127.0.0.1:9/response",
        **fields,
    }
    return {"type": "slash_commands", "accepts_response_payload": True, "payload": payload}


def _interactive(payload: Any) -> dict[str, Any]:
    return {"type": "interactive", "accepts_response_payload": False, "payload": payload}


def _actions(actions: Any, **fields: Any) -> dict[str, Any]:
    payload = {
        "type": "block_actions",
        "team": {"id": TEAM},
        "user": {"id": "U1", "name": "u1", "team_id": TEAM},
        "channel": {"id": "C1"},
        "container": {"type": "message", "message_ts": "1.0", "channel_id": "C1"},
        "message": {"ts": "1.0", "type": "message"},
        "trigger_id": "trigger.sock",
        "response_url": "http://127.0.0.1:9/response",
        "actions": actions,
        **fields,
    }
    return _interactive(payload)


def _button(action_id: str, value: Any) -> list[dict[str, Any]]:
    return [{"type": "button", "action_id": action_id, "value": value, "block_id": "b"}]


REACTION = {
    "type": "reaction_added",
    "user": "U1",
    "reaction": "bulb",
    "item": {"type": "message", "channel": "C1", "ts": "1.0"},
}
REPLY = {
    "type": "message",
    "channel": "C1",
    "user": "U1",
    "text": "an answer",
    "ts": "2.0",
    "thread_ts": "1.0",
}

# (envelope, the core event type it must become, or None: acknowledged and ignored)
ENVELOPES: list[Any] = [
    pytest.param(_event(REACTION), Reaction, id="reaction"),
    pytest.param(_event(REPLY), Reply, id="reply"),
    pytest.param(_command(), Command, id="quiz-command"),
    pytest.param(_actions(_button("quiz:reveal", "7")), ButtonPress, id="reveal-button"),
    pytest.param(
        _event({"type": "app_mention", "user": "U1", "text": "<@U0BOT>", "channel": "C1"}),
        None,
        id="app-mention",
    ),
    pytest.param(_event({**REACTION, "type": "reaction_removed"}), None, id="reaction-removed"),
    pytest.param(_event({"type": "member_joined_channel", "user": "U1"}), None, id="other-event"),
    pytest.param(_events_api("hello"), None, id="payload-string"),
    pytest.param(_events_api(["event_callback"]), None, id="payload-list"),
    pytest.param(_events_api(7), None, id="payload-number"),
    pytest.param(_events_api(None), None, id="payload-null"),
    pytest.param({"type": "events_api"}, None, id="no-payload"),
    pytest.param(_events_api({"type": "event_callback", "team_id": TEAM}), None, id="no-event"),
    pytest.param(_event({"user": "U1"}), None, id="event-without-type"),
    pytest.param(_event({"type": 5}), None, id="event-type-number"),
    pytest.param(_event("reaction_added"), None, id="event-string"),
    pytest.param(_event(["reaction_added"]), None, id="event-list"),
    pytest.param(_event({**REACTION, "item": "message"}), None, id="item-string"),
    pytest.param(_event({**REACTION, "item": None}), None, id="item-null"),
    pytest.param(_event({**REACTION, "reaction": {"name": "bulb"}}), None, id="reaction-object"),
    pytest.param(_event({**REACTION, "user": {"id": "UCAROL"}}), None, id="reaction-user-object"),
    pytest.param(_event({**REPLY, "user": {"id": "UCAROL"}}), None, id="reply-user-object"),
    pytest.param(_event({**REPLY, "text": {"t": 1}}), None, id="reply-text-object"),
    pytest.param(_event({**REPLY, "thread_ts": 1.0}), None, id="reply-thread-number"),
    pytest.param(
        _event({"type": "message", "subtype": "message_changed", "channel": "C1", "message": "x"}),
        None,
        id="edit-message-string",
    ),
    pytest.param(_event(REPLY, authorizations="x", team_id=None), None, id="authorizations-str"),
    pytest.param(_event(REACTION, event_id=12), None, id="event-id-number"),
    pytest.param(_event(REACTION, team_id=["T"]), None, id="team-id-list"),
    pytest.param(_command(command="/other"), None, id="other-command"),
    pytest.param(_command(user_id={"id": "U1"}), None, id="command-user-object"),
    pytest.param(_command(text=["now"]), None, id="command-text-list"),
    pytest.param(
        {"type": "slash_commands", "accepts_response_payload": True, "payload": ["/quiz"]},
        None,
        id="command-payload-list",
    ),
    pytest.param(_actions(_button("other:thing", "1")), None, id="unknown-action-id"),
    pytest.param(_actions(_button("quiz:reveal", "9" * 30)), None, id="reveal-huge-number"),
    pytest.param(_actions(_button("quiz:reveal", "-1")), None, id="reveal-negative"),
    pytest.param(_actions(_button("quiz:reveal", {"id": 7})), None, id="reveal-value-object"),
    pytest.param(_actions("quiz:reveal"), None, id="actions-string"),
    pytest.param(_actions([]), None, id="actions-empty"),
    pytest.param(_actions(["quiz:reveal"]), None, id="action-string"),
    pytest.param(_actions(_button("quiz:reveal", "7"), user="U1"), None, id="action-user-string"),
    pytest.param(
        _actions(_button("quiz:reveal", "7"), user={"id": {"id": "U1"}}),
        None,
        id="action-user-id-object",
    ),
    pytest.param(
        _actions(_button("quiz:reveal", "7"), team="T", channel="C"),
        None,
        id="action-team-string",
    ),
    pytest.param(
        _interactive({"type": "shortcut", "callback_id": "x", "trigger_id": "t", "team": {}}),
        None,
        id="global-shortcut",
    ),
    pytest.param(
        _interactive({"type": "message_action", "callback_id": "x", "trigger_id": "t"}),
        None,
        id="message-shortcut",
    ),
    pytest.param(
        _interactive({"type": "view_submission", "view": {"callback_id": "unknown", "id": "V"}}),
        None,
        id="view-submission-unknown",
    ),
    pytest.param(
        _interactive({"type": "view_submission", "view": {"callback_id": "quizform:suggest:"}}),
        None,
        id="view-submission-without-a-view-type",
    ),
    pytest.param(
        _interactive({"type": "view_closed", "view": {"callback_id": "unknown", "id": "V"}}),
        None,
        id="view-closed",
    ),
    pytest.param(_interactive("block_actions"), None, id="interactive-string"),
    pytest.param(_interactive([{"type": "block_actions"}]), None, id="interactive-list"),
    pytest.param(_interactive({"type": "block_suggestion"}), None, id="block-suggestion"),
    pytest.param(
        {"type": "something_new", "accepts_response_payload": False, "payload": {}},
        None,
        id="unknown-envelope-type",
    ),
]


@pytest.fixture
async def socket_mode(fake_slack: FakeSlack) -> AsyncIterator[tuple[SlackPlatform, list[Event]]]:
    received: list[Event] = []

    async def handler(event: Event) -> Response | None:
        received.append(event)
        return None

    settings = SlackSettings(
        _env_file=None,  # type: ignore[call-arg]
        slack_bot_token=SecretStr(BOT_TOKEN),
        slack_app_token=SecretStr(APP_TOKEN),
        slack_api_url=fake_slack.api_url,
    )
    platform = create_slack_platform(settings)
    await platform.start(handler)
    try:
        await asyncio.wait_for(fake_slack.socket_connected.wait(), timeout=5)
        yield platform, received
    finally:
        await platform.stop()


@pytest.mark.parametrize(("envelope", "becomes"), ENVELOPES)
async def test_every_envelope_is_acknowledged_and_only_well_formed_ones_reach_the_core(
    socket_mode: tuple[SlackPlatform, list[Event]],
    fake_slack: FakeSlack,
    envelope: dict[str, Any],
    becomes: type[Event] | None,
    caplog: pytest.LogCaptureFixture,
    request: pytest.FixtureRequest,
) -> None:
    platform, received = socket_mode
    envelope_id = f"env-{request.node.callspec.id}"
    with caplog.at_level(logging.DEBUG):
        ack = await fake_slack.push(
            {"envelope_id": envelope_id, **envelope}, wait_seconds=ACK_TIMEOUT
        )
        await platform.wait_idle()
    assert ack["envelope_id"] == envelope_id
    assert [type(e) for e in received] == ([becomes] if becomes else [])
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


NOT_JSON = ["{not json", '{"envelope_id": "e", "type": "events_api", ', "hello", "[1, 2]", "null"]


async def test_frames_that_are_not_json_objects_log_one_line_and_no_traceback(
    socket_mode: tuple[SlackPlatform, list[Event]],
    fake_slack: FakeSlack,
    caplog: pytest.LogCaptureFixture,
) -> None:
    platform, received = socket_mode
    assert fake_slack.socket is not None
    with caplog.at_level(logging.INFO):
        for frame in NOT_JSON * 3:
            await fake_slack.socket.send_str(frame)
        # frames are read in order: once this one is acknowledged, all the bad ones were read
        ack = await fake_slack.push(
            {"envelope_id": "env-after", **_event(REACTION)}, wait_seconds=ACK_TIMEOUT
        )
        await platform.wait_idle()
    assert ack["envelope_id"] == "env-after"
    assert [type(e) for e in received] == [Reaction]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    ignored = [r for r in caplog.records if "not a JSON object" in r.getMessage()]
    assert len(ignored) == 1
