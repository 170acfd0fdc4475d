"""The HTTP endpoint at its edge: verification first on the raw bytes, then the shape.

Unsigned or wrongly signed requests get 401, signed but malformed ones 400, signed
events of a shape the quiz does not use 200 (Slack retries anything else). None of
them gets a 5xx or logs a traceback, and a flood of them logs one line.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from urllib.parse import urlencode

import aiohttp
import pytest

from adapters.slack.connector import SlackPlatform
from adapters.slack.verification import RequestVerifier
from tests.slack.driver import SlackQuiz
from tests.slack.fake_slack import TEAM
from tests.slack.signed import FORM, JSON, SIGNING_SECRET, signed_headers


async def _post(slack: SlackPlatform, body: bytes, headers: dict[str, str]) -> int:
    assert slack.http_transport is not None and slack.http_transport.bound_port
    url = f"http://127.0.0.1:{slack.http_transport.bound_port}/slack/events"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=body, headers=headers) as response,
    ):
        await response.read()
        return response.status


def _signed(body: bytes, content_type: str, *, timestamp: str | None = None) -> dict[str, str]:
    stamp = timestamp if timestamp is not None else str(int(time.time()))
    base = b"v0:" + stamp.encode() + b":" + body
    digest = hmac.new(SIGNING_SECRET.encode(), base, hashlib.sha256).hexdigest()
    return {
        "content-type": content_type,
        "x-slack-request-timestamp": stamp,
        "x-slack-signature": f"v0={digest}",
    }


def _unsigned(content_type: str, *, timestamp: str | None = None) -> dict[str, str]:
    stamp = timestamp if timestamp is not None else str(int(time.time()))
    return {
        "content-type": content_type,
        "x-slack-request-timestamp": stamp,
        "x-slack-signature": "v0=" + "0" * 64,
    }


def _envelope(event: object, **extra: object) -> bytes:
    body: dict[str, object] = {
        "team_id": TEAM,
        "api_app_id": "A0APP",
        "type": "event_callback",
        "event_id": "Ev0EDGE",
        "event_time": int(time.time()),
        **extra,
    }
    if event is not None:
        body["event"] = event
    return json.dumps(body).encode()


UNSIGNED = [
    pytest.param(b"payload=%7Bx", _unsigned(FORM), id="form-payload-not-json"),
    pytest.param(b"{not json", _unsigned(FORM), id="form-body-starting-with-brace"),
    pytest.param(b"not json at all", _unsigned(JSON), id="json-type-not-json"),
    pytest.param(b"\xff\xfe\xfa", _unsigned(JSON), id="not-utf8"),
    pytest.param(b"token=x", _unsigned(FORM, timestamp="abc"), id="timestamp-abc"),
    pytest.param(b"token=x", _unsigned(FORM, timestamp="1796046314.220"), id="timestamp-fraction"),
    pytest.param(b"token=x", {"content-type": FORM}, id="no-signature-headers"),
    pytest.param(
        b"token=x",
        {**_unsigned(FORM), "x-slack-signature": "garbage"},
        id="signature-not-v0",
    ),
]


@pytest.mark.parametrize(("body", "headers"), UNSIGNED)
async def test_unverified_requests_get_401_with_one_short_line_and_no_traceback(
    slack_quiz: SlackQuiz,
    body: bytes,
    headers: dict[str, str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.DEBUG):
        assert await _post(slack_quiz.slack, body, headers) == 401
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert slack_quiz.fake.count("chat.postMessage") == 0


def test_a_timestamp_with_a_fraction_is_refused_even_when_signed() -> None:
    body = b"token=x"
    verifier = RequestVerifier(SIGNING_SECRET, now=lambda: 1796046314.0)
    headers = _signed(body, FORM, timestamp="1796046314.220")
    assert verifier.problem(body, headers) is not None
    good = _signed(body, FORM, timestamp="1796046314")
    assert verifier.problem(body, good) is None


async def test_a_flood_of_unsigned_requests_logs_one_line(
    slack_quiz: SlackQuiz, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        for _ in range(50):
            assert await _post(slack_quiz.slack, b"{x", _unsigned(JSON)) == 401
    refused = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 1


SIGNED_MALFORMED = [
    pytest.param(b"payload=%7Bx", FORM, id="form-payload-not-json"),
    pytest.param(b"{not json", FORM, id="form-body-starting-with-brace"),
    pytest.param(b"not json at all", JSON, id="json-type-not-json"),
    pytest.param(b"\xff\xfe\xfa", JSON, id="not-utf8"),
]


@pytest.mark.parametrize(("body", "content_type"), SIGNED_MALFORMED)
async def test_signed_but_malformed_requests_get_400_without_a_traceback(
    slack_quiz: SlackQuiz, body: bytes, content_type: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        assert await _post(slack_quiz.slack, body, _signed(body, content_type)) == 400
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


SIGNED_ODD_SHAPES = [
    pytest.param(_envelope("reaction_added"), id="event-is-a-string"),
    pytest.param(_envelope(["reaction_added"]), id="event-is-a-list"),
    pytest.param(
        _envelope({"type": "reaction_added", "user": "U1", "reaction": "bulb", "item": "message"}),
        id="item-is-a-string",
    ),
    pytest.param(
        _envelope({"type": "reaction_added", "user": "U1", "reaction": "bulb", "item": [1]}),
        id="item-is-a-list",
    ),
    pytest.param(
        _envelope(
            {
                "type": "reaction_added",
                "user": "U1",
                "reaction": 7,
                "item": {"type": "message", "channel": "C0QUIZ", "ts": "1.0"},
            }
        ),
        id="reaction-is-a-number",
    ),
    pytest.param(
        _envelope({"type": "message", "subtype": "message_changed", "message": "x"}),
        id="message-is-a-string",
    ),
    pytest.param(
        _envelope({"type": "message", "channel": "C0QUIZ", "user": "U1", "ts": 5}),
        id="ts-is-a-number",
    ),
    pytest.param(b"[]", id="json-array"),
    pytest.param(b'[{"type": "event_callback"}]', id="json-array-of-envelopes"),
    pytest.param(b'"event_callback"', id="json-string"),
    pytest.param(
        _envelope({"type": "app_mention", "user": "U1", "text": "hi", "channel": "C0QUIZ"}),
        id="app-mention",
    ),
    pytest.param(
        _envelope(
            {
                "type": "reaction_removed",
                "user": "U1",
                "reaction": "bulb",
                "item": {"type": "message", "channel": "C0QUIZ", "ts": "1.0"},
            }
        ),
        id="reaction-removed",
    ),
    pytest.param(_envelope(None), id="envelope-without-event"),
    pytest.param(_envelope({"user": "U1"}), id="event-without-type"),
    pytest.param(_envelope({"type": 5}), id="event-type-a-number"),
    pytest.param(b'{"type": "something_new"}', id="unknown-envelope-type"),
]


@pytest.mark.parametrize("body", SIGNED_ODD_SHAPES)
async def test_signed_events_of_an_unexpected_shape_are_acknowledged_and_ignored(
    slack_quiz: SlackQuiz, body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    posts = len(quiz.fake.messages)
    with caplog.at_level(logging.DEBUG):
        assert await _post(quiz.slack, body, _signed(body, JSON)) == 200
    await quiz.settle()
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]
    assert len(quiz.fake.messages) == posts


async def test_an_oversized_header_gets_400_without_an_error_traceback(
    slack_quiz: SlackQuiz, caplog: pytest.LogCaptureFixture
) -> None:
    body = b"token=x"
    headers = {**signed_headers(body.decode(), content_type=FORM), "x-padding": "a" * 20_000}
    with caplog.at_level(logging.DEBUG):
        assert await _post(slack_quiz.slack, body, headers) == 400
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def _interactive(payload: object) -> bytes:
    return urlencode({"payload": json.dumps(payload)}).encode()


VIEW = {"callback_id": "quizform:suggest:", "id": "V1", "private_metadata": '{"channel": "C"}'}
SIGNED_ODD_INTERACTIONS = [
    pytest.param(
        _interactive({"type": "view_submission", "team": {"id": TEAM}, "view": VIEW}),
        id="view-submission-without-a-view-type",
    ),
    pytest.param(
        _interactive({"type": "view_submission", "view": {**VIEW, "type": "workflow_step"}}),
        id="workflow-step-save-without-its-step",
    ),
    pytest.param(
        _interactive({"type": "workflow_step_edit", "callback_id": "x", "team": {"id": TEAM}}),
        id="workflow-step-edit-without-its-step",
    ),
]


@pytest.mark.parametrize("body", SIGNED_ODD_INTERACTIONS)
async def test_signed_interactions_of_an_unexpected_shape_get_200_without_a_traceback(
    slack_quiz: SlackQuiz, body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        assert await _post(slack_quiz.slack, body, _signed(body, FORM)) == 200
    await slack_quiz.settle()
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]
    assert slack_quiz.fake.count("chat.postMessage") == 0
