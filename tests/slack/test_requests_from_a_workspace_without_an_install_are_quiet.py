"""Signed requests from a workspace where the app is not installed (never, or no longer)
are answered 200 and ignored with one throttled line: no error per request, no traceback;
a slash command is told why."""

from __future__ import annotations

import json
import logging
from urllib.parse import urlencode

import pytest

from tests.slack.signed import FORM, bolt_request, command_body
from tests.slack.test_many_workspaces import (  # noqa: F401 - the hosted fixture
    CHANNELS,
    FIRST,
    SECOND,
    Hosted,
    hosted,
)


async def test_every_kind_of_request_is_ignored_with_one_line(
    hosted: Hosted,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    await hosted.install(FIRST)
    channel = CHANNELS[SECOND]
    view = {"type": "modal", "callback_id": "quizform:suggest:", "id": "V1"}
    submission = {
        "type": "view_submission",
        "team": {"id": SECOND},
        "user": {"id": "U1", "team_id": SECOND},
        "view": {**view, "private_metadata": json.dumps({"channel": channel})},
    }
    press = {
        "type": "block_actions",
        "team": {"id": SECOND},
        "user": {"id": "U1", "name": "u1", "team_id": SECOND},
        "channel": {"id": channel},
        "message": {"ts": "1.0", "type": "message"},
        "trigger_id": "trigger.1",
        "response_url": f"{hosted.fake.url}/response/2",
        "actions": [{"type": "button", "action_id": "quiz:reveal", "value": "1", "block_id": "b"}],
    }
    with caplog.at_level(logging.INFO):
        for n in range(5):
            message = {"type": "message", "channel": channel, "user": "U1", "text": "hi"}
            answer = await hosted.event(SECOND, {**message, "ts": f"1.{n}"})
            assert answer.status == 200
            reaction = {
                "type": "reaction_added",
                "user": "U1",
                "reaction": "bulb",
                "item": {"type": "message", "channel": channel, "ts": "1.0"},
            }
            assert (await hosted.event(SECOND, reaction)).status == 200
            for body in (
                urlencode({"payload": json.dumps(submission)}),
                urlencode({"payload": json.dumps(press)}),
            ):
                answer = await hosted.slack.app.async_dispatch(
                    bolt_request(body, content_type=FORM)
                )
                assert answer.status == 200
            command = command_body(
                "now",
                user="U1",
                channel=channel,
                response_url=f"{hosted.fake.url}/response/1",
                team=SECOND,
            )
            answer = await hosted.slack.app.async_dispatch(bolt_request(command, content_type=FORM))
            assert answer.status == 200
        await hosted.slack.wait_idle()
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]
    noted = [r for r in caplog.records if "not installed" in r.getMessage()]
    assert len(noted) == 1, [r.getMessage() for r in noted]
    assert "not installed in this workspace" in str(answer.body)  # the member is told why
    assert await hosted.service.store.channels.list_channels() == []
    assert hosted.fake.count("chat.postMessage") == 0
