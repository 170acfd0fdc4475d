"""Slack payloads → core events (pure translation)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl

import pytest

from adapters.slack.emoji import to_name, to_unicode
from adapters.slack.inbound import (
    PayloadError,
    button_from,
    command_from,
    reaction_from,
    removal_from,
    reply_from,
)
from bot.kernel.events import Reply
from tests.slack.fake_slack import TEAM
from tests.slack.signed import action_body, command_body, event_body


def _event(event: dict[str, Any], event_id: str = "Ev1") -> dict[str, Any]:
    body: dict[str, Any] = json.loads(event_body(event, event_id=event_id))
    return body


def test_reaction_on_a_message_becomes_a_reaction_with_unicode_emoji() -> None:
    body = _event(
        {
            "type": "reaction_added",
            "user": "U1",
            "reaction": "bulb",
            "item": {"type": "message", "channel": "C1", "ts": "1.000001"},
        }
    )
    reaction = reaction_from(body)
    assert reaction is not None
    assert reaction.event_id == "Ev1"
    assert reaction.emoji == "💡"
    assert reaction.channel.workspace == TEAM
    assert reaction.message.message_id == "1.000001"
    assert reaction.member.member_id == "U1"


def test_reaction_on_a_file_is_ignored() -> None:
    body = _event(
        {"type": "reaction_added", "user": "U1", "reaction": "+1", "item": {"type": "file"}}
    )
    assert reaction_from(body) is None


@pytest.mark.parametrize(
    ("name", "emoji"), [("+1", "👍"), ("thumbsup", "👍"), ("+1::skin-tone-4", "👍"), ("bulb", "💡")]
)
def test_emoji_names_map_to_unicode_and_back(name: str, emoji: str) -> None:
    assert to_unicode(name) == emoji
    assert to_unicode(to_name(emoji)) == emoji


def test_custom_emoji_names_are_kept_as_shortcodes() -> None:
    assert to_unicode("partyparrot") == ":partyparrot:"
    assert to_name(":partyparrot:") == "partyparrot"


def test_thread_reply_becomes_a_reply() -> None:
    body = _event(
        {
            "type": "message",
            "channel": "C1",
            "user": "U2",
            "text": "my answer",
            "ts": "2.0",
            "thread_ts": "1.0",
        }
    )
    reply = reply_from(body)
    assert isinstance(reply, Reply)
    assert (reply.thread.thread_id, reply.message.message_id, reply.text) == (
        "1.0",
        "2.0",
        "my answer",
    )
    assert not reply.edited


def test_reply_text_arrives_unescaped_for_the_core() -> None:
    body = _event(
        {
            "type": "message",
            "channel": "C1",
            "user": "U2",
            "text": "a &lt; b &amp;&amp; c &gt; d &amp;lt;",
            "ts": "2.0",
            "thread_ts": "1.0",
        }
    )
    reply = reply_from(body)
    assert reply is not None and reply.text == "a < b && c > d &lt;"


def test_edit_of_a_thread_reply_becomes_an_edited_reply() -> None:
    body = _event(
        {
            "type": "message",
            "subtype": "message_changed",
            "channel": "C1",
            "message": {"user": "U2", "text": "better", "ts": "2.0", "thread_ts": "1.0"},
            "previous_message": {"user": "U2", "text": "my answer", "ts": "2.0"},
        }
    )
    reply = reply_from(body)
    assert reply is not None and reply.edited and reply.text == "better"


@pytest.mark.parametrize(
    "event",
    [
        {"type": "message", "channel": "C1", "user": "U2", "text": "top", "ts": "1.0"},
        {"type": "message", "channel": "C1", "user": "U2", "ts": "1.0", "thread_ts": "1.0"},
        {"type": "message", "channel": "C1", "bot_id": "B1", "ts": "2.0", "thread_ts": "1.0"},
        {"type": "message", "subtype": "bot_message", "channel": "C1", "ts": "2", "thread_ts": "1"},
        {"type": "message", "subtype": "channel_join", "channel": "C1", "user": "U2", "ts": "2"},
        {"type": "message", "subtype": "message_deleted", "channel": "C1", "ts": "2"},
    ],
)
def test_other_messages_are_ignored(event: dict[str, Any]) -> None:
    assert reply_from(_event(event)) is None


def test_slash_command_splits_name_and_args() -> None:
    body = dict(
        parse_qsl(command_body("Leaderboard  week", user="U1", channel="C1", response_url=""))
    )
    command = command_from(body)
    assert (command.name, command.args) == ("leaderboard", ("week",))
    assert command.event_id.startswith("command:trigger.")


def test_empty_slash_command_is_help() -> None:
    body = dict(parse_qsl(command_body("", user="U1", channel="C1", response_url="")))
    assert command_from(body).name == "help"


def test_a_slash_command_in_an_im_is_marked_direct() -> None:
    def command(channel: str, name: str | None = None) -> bool:
        body = dict(parse_qsl(command_body("now", user="U1", channel=channel, response_url="")))
        if name is not None:
            body["channel_name"] = name
        return command_from(body).direct

    assert command("D0IM") and command("X0IM", "directmessage")
    assert not command("C0QUIZ", "quiz") and not command("G0PRIVATE", "privategroup")


def test_reveal_button_becomes_a_button_press() -> None:
    raw = action_body(
        action="quiz:reveal", value="7", user="U3", channel="C1", message_ts="1.0", response_url=""
    )
    body = json.loads(dict(parse_qsl(raw))["payload"])
    press = button_from(body, body["actions"][0])
    assert press is not None
    assert (press.action, press.value, press.message.message_id) == ("reveal", "7", "1.0")
    assert press.event_id.startswith("action:trigger.")


def test_a_removal_carries_slacks_event_time() -> None:
    body = json.loads(
        event_body({"type": "app_uninstalled"}, event_id="Ev0GONE", event_time=1764489600)
    )
    removal = removal_from(body)
    assert removal is not None
    assert (removal.team, removal.kind, removal.event_id) == (TEAM, "app_uninstalled", "Ev0GONE")
    assert removal.sent_at == datetime(2025, 11, 30, 8, 0, tzinfo=UTC)


def test_a_revocation_of_user_tokens_only_is_no_removal() -> None:
    revoked = {"type": "tokens_revoked", "tokens": {"oauth": ["U0INSTALLER"], "bot": []}}
    assert removal_from(_event(revoked)) is None
    without_time = _event({"type": "tokens_revoked", "tokens": {"bot": ["U0BOT"]}})
    del without_time["event_time"]
    removal = removal_from(without_time)
    assert removal is not None and removal.sent_at is None


@pytest.mark.parametrize(
    ("change", "says"),
    [({"team_id": ""}, "empty 'team_id'"), ({"event_time": 10**20}, "event_time is out of range")],
)
def test_a_removal_of_no_workspace_or_time_is_refused(change: dict[str, Any], says: str) -> None:
    body = {**_event({"type": "app_uninstalled"}), **change}
    with pytest.raises(PayloadError, match=says):
        removal_from(body)
