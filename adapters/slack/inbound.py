"""Translate Slack payloads (Events API, slash commands, interactivity) to core events.

Pure functions: no network, no bolt. Each returns ``None`` for a payload the
quiz ignores (bot messages, other subtypes, reactions on files...).

Event ids: an Events API envelope carries ``event_id`` (Slack's retries of the
same delivery repeat it). Slash commands and interactivity have no event id
and are never retried by Slack, so the id is derived from their
``trigger_id``, unique per invocation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adapters.slack.emoji import to_unicode
from adapters.slack.render import ACTION_PREFIX
from bot.errors import QuizError
from bot.events import ButtonPress, Command, Reaction, Reply
from bot.refs import ChannelRef, MemberRef, MessageRef, ThreadRef

PLATFORM = "slack"
HELP_COMMAND = "help"
# A member's reply also sent to the channel is still a reply in the thread.
REPLY_SUBTYPES = frozenset({None, "thread_broadcast"})

Payload = Mapping[str, Any]


class PayloadError(QuizError, ValueError):
    """A payload lacks a field the translation needs (named in the message)."""


def unescape(text: str) -> str:
    """Slack sends typed ``&``, ``<``, ``>`` escaped; the core keeps plain text (and the
    renderer escapes it again on the way out)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def channel_ref(team: str, channel: str) -> ChannelRef:
    return ChannelRef(platform=PLATFORM, workspace=team, channel=channel)


def member_ref(team: str, user: str, display_name: str = "") -> MemberRef:
    return MemberRef(platform=PLATFORM, workspace=team, member=user, display_name=display_name)


def _required(payload: Payload, key: str, where: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise PayloadError(f"Slack {where} payload has no {key!r}")
    return value


def envelope_team(body: Payload) -> str:
    """The workspace of an Events API envelope (``team_id``, else the first authorization)."""
    team = body.get("team_id")
    if isinstance(team, str) and team:
        return team
    for authorization in body.get("authorizations") or ():
        if isinstance(authorization, Mapping) and authorization.get("team_id"):
            return str(authorization["team_id"])
    raise PayloadError("Slack event envelope has no 'team_id'")


def reaction_from(body: Payload) -> Reaction | None:
    """``reaction_added`` on a message → :class:`Reaction` (emoji as Unicode when known)."""
    event = body.get("event") or {}
    item = event.get("item") or {}
    if item.get("type") != "message":
        return None
    team = envelope_team(body)
    channel = channel_ref(team, _required(item, "channel", "reaction_added item"))
    return Reaction(
        event_id=_required(body, "event_id", "event envelope"),
        channel=channel,
        message=MessageRef(channel, _required(item, "ts", "reaction_added item")),
        member=member_ref(team, _required(event, "user", "reaction_added")),
        emoji=to_unicode(_required(event, "reaction", "reaction_added")),
    )


def is_bot_message(message: Payload) -> bool:
    return bool(message.get("bot_id")) or message.get("subtype") == "bot_message"


def reply_from(body: Payload) -> Reply | None:
    """A member's message in a thread → :class:`Reply`; an edit of one → ``edited=True``.

    Top-level messages, bot messages and other subtypes (joins, deletions, ...)
    give ``None``.
    """
    event = body.get("event") or {}
    subtype = event.get("subtype")
    if subtype == "message_changed":
        message = event.get("message") or {}
        edited = True
    elif subtype in REPLY_SUBTYPES:
        message = event
        edited = False
    else:
        return None
    if is_bot_message(message) or message.get("subtype") not in REPLY_SUBTYPES:
        return None
    thread_ts = message.get("thread_ts")
    ts = message.get("ts")
    user = message.get("user")
    if not thread_ts or not ts or thread_ts == ts or not user:
        return None
    team = envelope_team(body)
    channel = channel_ref(team, _required(event, "channel", "message"))
    return Reply(
        event_id=_required(body, "event_id", "event envelope"),
        channel=channel,
        thread=ThreadRef(channel, str(thread_ts)),
        message=MessageRef(channel, str(ts)),
        member=member_ref(team, str(user)),
        text=unescape(str(message.get("text") or "")),
        edited=edited,
    )


def command_from(body: Payload) -> Command:
    """``/quiz leaderboard week`` → ``Command(name="leaderboard", args=("week",))``."""
    team = _required(body, "team_id", "slash command")
    words = unescape(str(body.get("text") or "")).split()
    name = words[0].lower() if words else HELP_COMMAND
    return Command(
        event_id=f"command:{_required(body, 'trigger_id', 'slash command')}",
        channel=channel_ref(team, _required(body, "channel_id", "slash command")),
        member=member_ref(
            team, _required(body, "user_id", "slash command"), str(body.get("user_name") or "")
        ),
        name=name,
        args=tuple(words[1:]),
    )


def button_from(body: Payload, action: Payload) -> ButtonPress | None:
    """A ``block_actions`` click on a button of ours (``quiz:<action>``) → ButtonPress."""
    action_id = str(action.get("action_id") or "")
    if not action_id.startswith(ACTION_PREFIX):
        return None
    user = body.get("user") or {}
    team = str((body.get("team") or {}).get("id") or user.get("team_id") or "")
    if not team:
        raise PayloadError("Slack block_actions payload has no team id")
    container = body.get("container") or {}
    channel_id = (body.get("channel") or {}).get("id") or container.get("channel_id")
    message_ts = (body.get("message") or {}).get("ts") or container.get("message_ts")
    if not channel_id or not message_ts:
        return None  # a button outside a channel message (e.g. a modal): not ours
    channel = channel_ref(team, str(channel_id))
    return ButtonPress(
        event_id=f"action:{_required(body, 'trigger_id', 'block_actions')}",
        channel=channel,
        message=MessageRef(channel, str(message_ts)),
        member=member_ref(
            team,
            _required(user, "id", "block_actions user"),
            str(user.get("name") or user.get("username") or ""),
        ),
        action=action_id.removeprefix(ACTION_PREFIX),
        value=str(action.get("value") or ""),
    )
