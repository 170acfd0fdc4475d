"""Interactions Discord no longer lets us answer, and /quiz payloads that do not fit."""

from __future__ import annotations

import logging

import pytest

from tests.discord.conftest import (
    PlatformFactory,
    Recorder,
    command_payload,
    eventually,
    feed,
)
from tests.discord.fake_discord import FakeDiscord

ANN = 730000000000000001
CALLBACK = r"/interactions/\d+/[^/]+/callback"


def _loud(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.parametrize(
    ("status", "code", "message"),
    [
        (404, 10062, "Unknown interaction"),
        (400, 40060, "Interaction has already been acknowledged."),
    ],
)
async def test_an_expired_or_replayed_interaction_logs_one_line(
    fake: FakeDiscord,
    make_platform: PlatformFactory,
    caplog: pytest.LogCaptureFixture,
    status: int,
    code: int,
    message: str,
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder()
    platform = await make_platform(recorder)
    fake.fail_next("POST", CALLBACK, status, {"code": code, "message": message})
    caplog.clear()

    with caplog.at_level(logging.DEBUG):
        feed(platform, "INTERACTION_CREATE", command_payload(fake, ANN, "me"))
        await eventually(lambda: bool(fake.requests_to("POST", CALLBACK)))
        await eventually(lambda: any(str(code) in r.getMessage() for r in caplog.records))

    assert _loud(caplog) == []
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1 and str(code) in lines[0].getMessage()
    assert recorder.events == []  # nobody is left to answer


@pytest.mark.parametrize(
    ("subcommand", "options"),
    [
        ("frobnicate", []),  # removed in a command update
        ("leaderboard", [{"name": "period", "type": 4, "value": 7}]),
        ("stats", [{"name": "public", "type": 3, "value": "yes"}]),
    ],
    ids=["unknown subcommand", "integer for a choice", "text for a flag"],
)
async def test_a_quiz_interaction_that_does_not_fit_is_told_the_command_changed(
    fake: FakeDiscord,
    make_platform: PlatformFactory,
    caplog: pytest.LogCaptureFixture,
    subcommand: str,
    options: list[dict[str, object]],
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder()
    platform = await make_platform(recorder)
    payload = command_payload(fake, ANN, "me")
    payload["data"]["options"] = [{"name": subcommand, "type": 1, "options": options}]
    caplog.clear()

    with caplog.at_level(logging.DEBUG):
        feed(platform, "INTERACTION_CREATE", payload)
        await eventually(lambda: bool(fake.interaction_replies))

    [reply] = fake.interaction_replies
    assert reply["type"] == 4  # answered at once, privately
    assert "This command changed; try again" in reply["data"]["embeds"][0]["description"]
    assert reply["data"]["flags"] & 64
    assert recorder.events == []
    assert _loud(caplog) == []
