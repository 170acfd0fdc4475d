"""Interactions Discord no longer lets us answer, /quiz payloads that do not fit, and
interactions that say nobody sent them."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from tests.discord.conftest import (
    PlatformFactory,
    Recorder,
    button_payload,
    command_payload,
    eventually,
    feed,
    modal_submit_payload,
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


def _reveal_button_message(fake: FakeDiscord) -> dict[str, Any]:
    button = {"type": 2, "style": 1, "label": "Reveal", "custom_id": "quizbot:reveal:1"}
    return fake.add_message(
        fake.channel_id, fake.bot_id, "", components=[{"type": 1, "components": [button]}]
    )


def _autocomplete(fake: FakeDiscord, options: list[dict[str, Any]]) -> dict[str, Any]:
    payload = command_payload(fake, ANN, "practice")
    payload["type"] = 4  # APPLICATION_COMMAND_AUTOCOMPLETE
    payload["data"]["options"][0]["options"] = options
    return payload


def _interaction_of(fake: FakeDiscord, kind: str) -> dict[str, Any]:
    if kind == "command":
        return command_payload(fake, ANN, "me")
    if kind == "button":
        return button_payload(fake, ANN, _reveal_button_message(fake), "quizbot:reveal:1")
    if kind == "form":
        return modal_submit_payload(fake, ANN, f"quizbot-form:answer:1:{ANN}", {"answer": "x"})
    return _autocomplete(fake, [{"name": "topic", "type": 3, "value": "g", "focused": True}])


def _without_member(payload: dict[str, Any], fake: FakeDiscord, who: str) -> dict[str, Any]:
    payload = {k: v for k, v in payload.items() if k != "member"}
    if who == "user only":  # a guild interaction must carry the member: malformed
        payload["user"] = fake.users[ANN]
    elif who == "in a DM, no user":
        payload.pop("guild_id")
    return payload


async def _then_a_probe(fake: FakeDiscord, recorder: Recorder) -> None:
    """A good command sent after the frame arrives: the gateway is still up, and the frame
    before it has been handled."""
    probe = command_payload(fake, ANN, "me")
    await fake.send_raw(fake.frame("INTERACTION_CREATE", probe))
    await eventually(lambda: any(e.event_id == probe["id"] for e in recorder.events))
    await asyncio.sleep(0.05)  # what the frame before it started has ended too


def _lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What the adapter and discord.py logged at INFO or above."""
    ours = ("adapters.", "discord.")
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.INFO and r.name.startswith(ours)
    ]


@pytest.mark.parametrize("who", ["no member nor user", "user only", "in a DM, no user"])
@pytest.mark.parametrize("kind", ["command", "button", "form", "autocomplete"])
async def test_an_interaction_without_a_member_is_ignored_in_one_line(
    fake: FakeDiscord,
    make_platform: PlatformFactory,
    caplog: pytest.LogCaptureFixture,
    kind: str,
    who: str,
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder()
    await make_platform(recorder)
    payload = _without_member(_interaction_of(fake, kind), fake, who)
    caplog.clear()

    with caplog.at_level(logging.DEBUG):
        await fake.send_raw(fake.frame("INTERACTION_CREATE", payload))
        await _then_a_probe(fake, recorder)

    assert _loud(caplog) == []
    [line] = _lines(caplog)
    assert "without a member" in line
    assert [e.event_id for e in recorder.events] == [recorder.events[-1].event_id]  # the probe
    answered = [r for r in fake.interaction_replies if r.get("interaction") == int(payload["id"])]
    assert answered == []  # nobody to answer: Discord shows the sender nothing happened


@pytest.mark.parametrize(
    "options",
    [[], [{"name": "topic", "type": 3, "value": "g"}]],
    ids=["no options", "an option, not focused"],
)
async def test_an_autocomplete_with_no_focused_option_gets_no_choices_in_one_line(
    fake: FakeDiscord,
    make_platform: PlatformFactory,
    caplog: pytest.LogCaptureFixture,
    options: list[dict[str, Any]],
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder()
    await make_platform(recorder)
    payload = _autocomplete(fake, options)
    caplog.clear()

    with caplog.at_level(logging.DEBUG):
        await fake.send_raw(fake.frame("INTERACTION_CREATE", payload))
        await eventually(lambda: bool(fake.interaction_replies))
        await _then_a_probe(fake, recorder)

    assert _loud(caplog) == []
    [line] = _lines(caplog)
    assert "no focused option" in line
    reply = fake.interaction_replies[0]
    assert reply["interaction"] == int(payload["id"])
    assert reply["type"] == 8 and reply["data"] == {"choices": []}  # autocomplete result

    # a well-formed autocomplete is still answered with its choices
    focused = _autocomplete(fake, [{"name": "topic", "type": 3, "value": "gp", "focused": True}])
    await fake.send_raw(fake.frame("INTERACTION_CREATE", focused))
    await eventually(
        lambda: any(r.get("interaction") == int(focused["id"]) for r in fake.interaction_replies)
    )
    [choices] = [r for r in fake.interaction_replies if r.get("interaction") == int(focused["id"])]
    assert choices["data"] == {"choices": [{"name": "gpu", "value": "gpu"}]}
