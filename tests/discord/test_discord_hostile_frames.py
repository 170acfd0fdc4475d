"""Hostile and malformed gateway frames, sent over the fake gateway's websocket.

For every frame: the gateway stays up (a good answer sent after it still
arrives), nothing is logged at ERROR and no traceback is logged, at most one
warning line is written, and the frame produces the events it should (none,
for a malformed one).
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from adapters.discord.inbound import channel_ref
from bot.kernel.events import Event
from bot.kernel.refs import MessageRef
from tests.discord.conftest import (
    PlatformFactory,
    Recorder,
    button_payload,
    command_payload,
    eventually,
    message_payload,
    reaction_payload,
)
from tests.discord.fake_discord import FakeDiscord

ANN = 730000000000000001
UNKNOWN_CHANNEL = 799999999999999999

Json = dict[str, Any]


@dataclass
class Scene:
    fake: FakeDiscord
    thread_id: int
    question: Json

    def answer(self, content: str = "an answer") -> Json:
        message = self.fake.add_message(self.thread_id, ANN, content)
        return message_payload(self.fake, message)

    def reaction(self) -> Json:
        return reaction_payload(
            self.fake, self.fake.channel_id, int(self.question["id"]), ANN, "💡"
        )

    def button(self, custom_id: str) -> Json:
        return button_payload(self.fake, ANN, self.question, custom_id)

    def command(self, name: str, options: dict[str, Any] | None = None) -> Json:
        return command_payload(self.fake, ANN, name, options)


def changed(payload: Json, path: str, value: Any) -> Json:
    """``payload`` with the key at ``path`` ("a.b") set to ``value`` (or removed: ...)."""
    copied = copy.deepcopy(payload)
    *parents, last = path.split(".")
    node = copied
    for key in parents:
        node = node[key]
    if value is ...:
        node.pop(last, None)
    else:
        node[last] = value
    return copied


Frame = Callable[[Scene], str]


def dispatch(event: str, build: Callable[[Scene], Any]) -> Frame:
    return lambda scene: scene.fake.frame(event, build(scene))


def raw(text: str) -> Frame:
    return lambda scene: text


def answer_with(path: str, value: Any) -> Frame:
    return dispatch("MESSAGE_CREATE", lambda s: changed(s.answer(), path, value))


def edit_with(path: str, value: Any) -> Frame:
    def build(scene: Scene) -> Json:
        edited = changed(scene.answer(), "edited_timestamp", "2025-01-06T09:05:00+00:00")
        return changed(edited, path, value)

    return dispatch("MESSAGE_UPDATE", build)


def reaction_with(path: str, value: Any) -> Frame:
    return dispatch("MESSAGE_REACTION_ADD", lambda s: changed(s.reaction(), path, value))


def button_with(path: str = "", value: Any = ..., custom_id: str = "quizbot:reveal:1") -> Frame:
    def build(scene: Scene) -> Json:
        payload = scene.button(custom_id)
        return changed(payload, path, value) if path else payload

    return dispatch("INTERACTION_CREATE", build)


def command_with(name: str, options: list[Json] | None, path: str = "", value: Any = ...) -> Frame:
    def build(scene: Scene) -> Json:
        payload = scene.command("leaderboard")
        payload["data"]["options"] = [{"name": name, "type": 1, "options": options or []}]
        return changed(payload, path, value) if path else payload

    return dispatch("INTERACTION_CREATE", build)


HUGE = "9" * 30

# (name, frame, events the core should get from it)
CASES: list[tuple[str, Frame, int]] = [
    # framing
    ("not JSON", raw("not json {"), 0),
    ("empty text", raw(""), 0),
    ("a JSON array", raw("[]"), 0),
    ("a JSON string", raw('"hello"'), 0),
    ("a JSON number", raw("42"), 0),
    ("JSON null", raw("null"), 0),
    ("no op", raw(json.dumps({"t": "MESSAGE_CREATE", "d": {}})), 0),
    ("an unknown op", raw(json.dumps({"op": 99, "d": {}})), 0),
    ("HELLO with d null", raw(json.dumps({"op": 10, "d": None})), 0),
    ("a dispatch without t", raw(json.dumps({"op": 0, "s": 1, "d": {}})), 0),
    ("an unknown event", dispatch("QUIZ_FROBNICATE", lambda s: {}), 0),
    ("a sequence that is text", raw(json.dumps({"op": 0, "t": "X", "s": "abc", "d": {}})), 0),
    ("MESSAGE_CREATE d null", dispatch("MESSAGE_CREATE", lambda s: None), 0),
    ("MESSAGE_CREATE d a list", dispatch("MESSAGE_CREATE", lambda s: []), 0),
    ("MESSAGE_CREATE d a string", dispatch("MESSAGE_CREATE", lambda s: "x"), 0),
    ("MESSAGE_UPDATE d null", dispatch("MESSAGE_UPDATE", lambda s: None), 0),
    ("REACTION_ADD d null", dispatch("MESSAGE_REACTION_ADD", lambda s: None), 0),
    ("INTERACTION_CREATE d null", dispatch("INTERACTION_CREATE", lambda s: None), 0),
    ("GUILD_CREATE d null", dispatch("GUILD_CREATE", lambda s: None), 0),
    # answers
    ("answer: author null", answer_with("author", None), 0),
    ("answer: no author", answer_with("author", ...), 0),
    ("answer: author id abc", answer_with("author.id", "abc"), 0),
    ("answer: author id too big", answer_with("author.id", "9" * 25), 0),
    ("answer: id abc", answer_with("id", "abc"), 0),
    ("answer: no id", answer_with("id", ...), 0),
    ("answer: channel_id abc", answer_with("channel_id", "abc"), 0),
    ("answer: no channel_id", answer_with("channel_id", ...), 0),
    ("answer: guild_id abc", answer_with("guild_id", "abc"), 0),
    ("answer: content null", answer_with("content", None), 0),
    ("answer: content a number", answer_with("content", 5), 0),
    ("answer: timestamp garbage", answer_with("timestamp", "garbage"), 1),
    ("answer: type text", answer_with("type", "x"), 0),
    ("answer: unknown type", answer_with("type", 999), 0),
    ("answer: member null", answer_with("member", None), 0),
    ("answer: mentions null", answer_with("mentions", None), 0),
    ("answer: embeds a string", answer_with("embeds", "x"), 0),
    # a webhook's post reaches the core marked as a bot's, which it ignores (see
    # test_webhook_posts_are_never_answers.py: the same on every path)
    ("answer: from a webhook", answer_with("webhook_id", "700000000000000009"), 1),
    ("answer: in an unknown channel", answer_with("channel_id", str(UNKNOWN_CHANNEL)), 0),
    ("answer: 100,000 characters", answer_with("content", "x" * 100_000), 1),
    # edits
    ("edit: no id", edit_with("id", ...), 0),
    ("edit: edited_timestamp garbage", edit_with("edited_timestamp", "x"), 0),
    ("edit: author null", edit_with("author", None), 0),
    ("edit: only ids", dispatch("MESSAGE_UPDATE", lambda s: {"id": "1", "channel_id": "2"}), 0),
    # reactions
    ("reaction: emoji null", reaction_with("emoji", None), 0),
    ("reaction: emoji empty", reaction_with("emoji", {}), 0),
    ("reaction: emoji id abc", reaction_with("emoji", {"id": "abc", "name": "x"}), 0),
    ("reaction: user_id null", reaction_with("user_id", None), 0),
    ("reaction: user_id abc", reaction_with("user_id", "abc"), 0),
    ("reaction: message_id abc", reaction_with("message_id", "abc"), 0),
    ("reaction: unknown channel", reaction_with("channel_id", str(UNKNOWN_CHANNEL)), 0),
    ("reaction: member null", reaction_with("member", None), 1),
    ("reaction: no guild", reaction_with("guild_id", ...), 0),
    # buttons
    ("button: no custom_id", button_with("data.custom_id", ...), 0),
    ("button: data null", button_with("data", None), 0),
    ("button: custom_id a number", button_with("data.custom_id", 5), 0),
    ("button: Reveal with a huge round", button_with(custom_id=f"quizbot:reveal:{HUGE}"), 0),
    ("button: someone else's custom id", button_with(custom_id="other:thing"), 0),
    ("button: no member nor user", button_with("member", ...), 0),
    ("interaction: unknown type", button_with("type", 99), 0),
    ("interaction: id abc", button_with("id", "abc"), 0),
    # /quiz
    ("/quiz: unknown subcommand", command_with("frobnicate", []), 0),
    (
        "/quiz: option of the wrong type",
        command_with("leaderboard", [{"name": "period", "type": 4, "value": 5}]),
        0,
    ),
    (
        "/quiz: bool option as text",
        command_with("stats", [{"name": "public", "type": 3, "value": "yes"}]),
        0,
    ),
    ("/quiz: options null", command_with("leaderboard", None, "data.options", None), 0),
    ("/quiz: no data name", command_with("leaderboard", [], "data.name", ...), 0),
]


@pytest.mark.parametrize(
    ("frame", "expected"), [(f, e) for _, f, e in CASES], ids=[name for name, _, _ in CASES]
)
async def test_a_hostile_frame_is_skipped_and_the_gateway_stays_up(
    fake: FakeDiscord,
    make_platform: PlatformFactory,
    caplog: pytest.LogCaptureFixture,
    frame: Frame,
    expected: int,
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder()
    platform = await make_platform(recorder)
    question = fake.add_message(fake.channel_id, fake.bot_id, "")
    posted = MessageRef(channel_ref(fake.guild_id, fake.channel_id), question["id"])
    thread = await platform.open_thread(posted, "Round", key="round:1:thread")
    scene = Scene(fake, int(thread.thread_id), question)
    caplog.clear()

    with caplog.at_level(logging.DEBUG):
        await fake.send_raw(frame(scene))
        probe = scene.answer("the probe after it")
        await fake.send_raw(fake.frame("MESSAGE_CREATE", probe))
        await eventually(lambda: _delivered(recorder.events, probe["id"]), within=3.0)
        await asyncio.sleep(0.05)  # what the hostile frame started (a REST lookup) ends too

    caused = [e for e in recorder.events if e.event_id != probe["id"]]
    assert len(caused) == expected
    loud = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert loud == [], [r.getMessage() for r in loud]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) <= 1, [r.getMessage() for r in warnings]


def _delivered(events: list[Event], event_id: str) -> bool:
    return any(e.event_id == event_id for e in events)
