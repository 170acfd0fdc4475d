"""Signed Slack requests (Events API, slash command, interactivity), as Slack sends them."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.signature import SignatureVerifier

from tests.slack.fake_slack import TEAM

SIGNING_SECRET = "test-signing-secret"
_ids = itertools.count(1)


def signed_headers(
    body: str, *, content_type: str, secret: str = SIGNING_SECRET, timestamp: int | None = None
) -> dict[str, str]:
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    signature = SignatureVerifier(secret).generate_signature(timestamp=stamp, body=body)
    assert signature is not None
    return {
        "content-type": content_type,
        "x-slack-request-timestamp": stamp,
        "x-slack-signature": signature,
    }


def event_body(
    event: Mapping[str, Any],
    *,
    event_id: str | None = None,
    team: str = TEAM,
    event_time: int | None = None,
) -> str:
    """An Events API envelope; ``event_time`` (Slack's, in whole seconds) defaults to now."""
    return json.dumps(
        {
            "token": "unused",
            "team_id": team,
            "api_app_id": "A0APP",
            "type": "event_callback",
            "event_id": event_id or f"Ev{next(_ids):08d}",
            "event_time": int(time.time()) if event_time is None else event_time,
            "event": event,
            "authorizations": [{"team_id": team, "user_id": "U0BOT", "is_bot": True}],
        }
    )


def command_body(
    text: str,
    *,
    user: str,
    channel: str,
    response_url: str,
    team: str = TEAM,
    channel_name: str | None = None,
) -> str:
    """A slash command; ``channel_name`` as Slack names the conversation (``directmessage``
    in an IM, ``mpdm-…`` in a group DM), left out when None."""
    fields = {
        "command": "/quiz",
        "text": text,
        "team_id": team,
        "channel_id": channel,
        "user_id": user,
        "user_name": user.lower(),
        "trigger_id": f"trigger.{next(_ids)}",
        "response_url": response_url,
    }
    if channel_name is not None:
        fields["channel_name"] = channel_name
    return urlencode(fields)


def action_body(
    *, action: str, value: str, user: str, channel: str, message_ts: str, response_url: str
) -> str:
    payload = {
        "type": "block_actions",
        "team": {"id": TEAM},
        "user": {"id": user, "name": user.lower(), "team_id": TEAM},
        "channel": {"id": channel},
        "container": {"type": "message", "message_ts": message_ts, "channel_id": channel},
        "message": {"ts": message_ts, "type": "message"},
        "trigger_id": f"trigger.{next(_ids)}",
        "response_url": response_url,
        "actions": [
            {
                "type": "button",
                "action_id": action,
                "value": value,
                "block_id": "b",
                "action_ts": "1",
            }
        ],
    }
    return urlencode({"payload": json.dumps(payload)})


def _state_value(text: str | list[str]) -> dict[str, Any]:
    """A text input's state, or (a list) the options chosen in checkboxes."""
    if isinstance(text, list):
        picked = [{"value": value, "text": {"type": "plain_text", "text": value}} for value in text]
        return {"type": "checkboxes", "selected_options": picked}
    return {"type": "plain_text_input", "value": text}


def view_submission_body(
    view: Mapping[str, Any], values: Mapping[str, str | list[str]], *, user: str
) -> str:
    """The submission of a modal the bot opened (``view`` as views.open returned it); a
    list value stands for the options chosen in checkboxes or a select."""
    payload = {
        "type": "view_submission",
        "team": {"id": TEAM},
        "user": {"id": user, "name": user.lower(), "team_id": TEAM},
        "trigger_id": f"trigger.{next(_ids)}",
        "view": {
            **view,
            "state": {
                "values": {name: {"value": _state_value(text)} for name, text in values.items()}
            },
        },
    }
    return urlencode({"payload": json.dumps(payload)})


def bolt_request(
    body: str,
    *,
    content_type: str,
    secret: str = SIGNING_SECRET,
    timestamp: int | None = None,
    retry_num: int | None = None,
) -> AsyncBoltRequest:
    headers: dict[str, str | Sequence[str]] = {
        **signed_headers(body, content_type=content_type, secret=secret, timestamp=timestamp)
    }
    if retry_num is not None:
        headers["x-slack-retry-num"] = str(retry_num)
        headers["x-slack-retry-reason"] = "http_timeout"
    return AsyncBoltRequest(body=body, headers=dict(headers))


JSON = "application/json"
FORM = "application/x-www-form-urlencoded"
