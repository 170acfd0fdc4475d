"""Translate Slack payloads (Events API, slash commands, interactivity) to core events.

Pure functions: no network, no bolt. Each payload is first checked against its
TypedDict (``payloads``); one of another shape raises :class:`PayloadError`.
Each returns ``None`` for a payload the quiz ignores (bot messages, other
subtypes, reactions on files...).

Event ids: an Events API envelope carries ``event_id`` (Slack's retries of the
same delivery repeat it). Slash commands and interactivity have no event id
and are never retried by Slack, so the id is derived from their
``trigger_id``, unique per invocation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from adapters.slack.emoji import to_unicode
from adapters.slack.payloads import (
    ACTION,
    BLOCK_ACTIONS,
    MESSAGE_ENVELOPE,
    REACTION_ENVELOPE,
    REMOVAL_ENVELOPE,
    SLASH_COMMAND,
    Authorization,
    MessageFields,
    PayloadError,
    checked,
)
from adapters.slack.render import ACTION_PREFIX, REPEAT_MARK
from bot.kernel.events import ButtonPress, Command, DirectMessage, Reaction, Reply, split_command
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.rounds.cards import REVEAL_ACTION, round_id_from

PLATFORM = "slack"
HELP_COMMAND = "help"
IM_NAME = "directmessage"  # a slash command's channel_name in an IM
IM_PREFIX = "D"  # the ids of IMs (channels start with C, private channels and group DMs G)
# The names of group DMs (mpdm-ann--bob--cy-1): their G ids look like private channels'.
GROUP_DM_PREFIX = "mpdm-"
# A member's reply also sent to the channel is still a reply in the thread.
REPLY_SUBTYPES = frozenset({None, "thread_broadcast"})

Payload = Mapping[str, Any]
__all__ = [
    "PayloadError",
    "Removal",
    "button_from",
    "command_from",
    "reaction_from",
    "removal_from",
    "reply_from",
]


def unescape(text: str) -> str:
    """Slack sends typed ``&``, ``<``, ``>`` escaped; the core keeps plain text (and the
    renderer escapes it again on the way out)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def channel_ref(team: str, channel: str) -> ChannelRef:
    return ChannelRef(platform=PLATFORM, workspace=team, channel_id=channel)


def member_ref(team: str, user: str, display_name: str = "") -> MemberRef:
    return MemberRef(platform=PLATFORM, workspace=team, member_id=user, display_name=display_name)


def _team(team_id: str | None, authorizations: Sequence[Authorization]) -> str:
    """The workspace of an Events API envelope (``team_id``, else the first authorization)."""
    if team_id:
        return team_id
    for authorization in authorizations:
        if authorization.get("team_id"):
            return authorization["team_id"]
    raise PayloadError("Slack event envelope has no 'team_id'")


def reaction_from(body: Payload) -> Reaction | None:
    """``reaction_added`` on a message → :class:`Reaction` (emoji as Unicode when known)."""
    envelope = checked(REACTION_ENVELOPE, body, "reaction_added envelope")
    event = envelope["event"]
    item = event["item"]
    if item["type"] != "message":
        return None
    if not item.get("channel") or not item.get("ts"):
        raise PayloadError("Slack reaction_added item has no 'channel' or 'ts'")
    team = _team(envelope.get("team_id"), envelope.get("authorizations", ()))
    channel = channel_ref(team, item["channel"])
    return Reaction(
        event_id=envelope["event_id"],
        channel=channel,
        message=MessageRef(channel, item["ts"]),
        member=member_ref(team, event["user"]),
        emoji=to_unicode(event["reaction"]),
    )


def is_bot_message(message: MessageFields) -> bool:
    return bool(message.get("bot_id")) or message.get("subtype") == "bot_message"


def reply_from(body: Payload) -> Reply | None:
    """A member's message in a thread → :class:`Reply`; an edit of one → ``edited=True``.

    Top-level messages, bot messages and other subtypes (joins, deletions, ...)
    give ``None``.
    """
    envelope = checked(MESSAGE_ENVELOPE, body, "message envelope")
    event = envelope["event"]
    subtype = event.get("subtype")
    message: MessageFields
    if subtype == "message_changed":
        if "message" not in event:
            return None
        message = event["message"]
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
    channel_id = event.get("channel")
    if not channel_id:
        raise PayloadError("Slack message payload has no 'channel'")
    team = _team(envelope.get("team_id"), envelope.get("authorizations", ()))
    channel = channel_ref(team, channel_id)
    return Reply(
        event_id=envelope["event_id"],
        channel=channel,
        thread=ThreadRef(channel, thread_ts),
        message=MessageRef(channel, ts),
        member=member_ref(team, user),
        text=unescape(message.get("text") or ""),
        edited=edited,
    )


def direct_from(body: Payload) -> DirectMessage | None:
    """A member's new message in their IM with the bot → :class:`DirectMessage`; edits,
    bot messages and other subtypes give ``None``."""
    envelope = checked(MESSAGE_ENVELOPE, body, "message envelope")
    event = envelope["event"]
    if event.get("channel_type") != "im" or event.get("subtype") not in REPLY_SUBTYPES:
        return None
    ts, user, channel_id = event.get("ts"), event.get("user"), event.get("channel")
    if is_bot_message(event) or not ts or not user or not channel_id:
        return None
    team = _team(envelope.get("team_id"), envelope.get("authorizations", ()))
    channel = direct_ref(team, channel_id)
    return DirectMessage(
        event_id=envelope["event_id"],
        channel=channel,
        message=MessageRef(channel, ts),
        member=member_ref(team, user),
        text=unescape(event.get("text") or ""),
    )


def direct_ref(team: str, channel: str) -> ChannelRef:
    return ChannelRef("slack", team, channel, "DM")


def command_from(body: Payload) -> Command:
    """``/quiz leaderboard week`` → ``Command(name="leaderboard", args=("week",))``; the
    text after the name goes along as typed (free text keeps its spaces and newlines)."""
    command = checked(SLASH_COMMAND, body, "slash command")
    name, args, text = split_command(unescape(command.get("text", "")))
    team = command["team_id"]
    return Command(
        event_id=f"command:{command['trigger_id']}",
        channel=channel_ref(team, command["channel_id"]),
        member=member_ref(team, command["user_id"], command.get("user_name", "")),
        name=name.lower() or HELP_COMMAND,
        args=args,
        direct=is_direct(command["channel_id"], command.get("channel_name")),
        text=text,
    )


def is_direct(channel_id: str, channel_name: str | None = None) -> bool:
    """Whether a slash command came from direct messages, never a quiz channel: a member's
    IM with the bot (Slack names it ``directmessage``, IM ids start with ``D``) or a group
    DM (named ``mpdm-…``)."""
    return (
        channel_name == IM_NAME
        or channel_id.startswith(IM_PREFIX)
        or (channel_name or "").startswith(GROUP_DM_PREFIX)
    )


@dataclass(frozen=True, slots=True)
class Removal:
    """The app was uninstalled from ``team``, or its bot token revoked (``kind``: the event
    type). ``sent_at`` is Slack's ``event_time``: every delivery of the event has the same,
    however late it arrives (None when the envelope has none)."""

    team: str
    kind: str
    event_id: str
    sent_at: datetime | None


def removal_from(body: Payload) -> Removal | None:
    """``app_uninstalled``, or ``tokens_revoked`` naming the bot → :class:`Removal`; a
    revocation of users' tokens only gives ``None`` (the quiz keeps none)."""
    envelope = checked(REMOVAL_ENVELOPE, body, "removal envelope")
    event = envelope["event"]
    if event["type"] == "tokens_revoked" and not event.get("tokens", {}).get("bot"):
        return None
    if not envelope["team_id"]:
        raise PayloadError("Slack removal envelope has an empty 'team_id'")
    event_time = envelope.get("event_time")
    try:
        sent_at = None if event_time is None else datetime.fromtimestamp(event_time, UTC)
    except (OverflowError, OSError, ValueError):
        raise PayloadError("Slack removal envelope: event_time is out of range") from None
    return Removal(envelope["team_id"], event["type"], envelope["event_id"], sent_at)


def button_from(body: Payload, action: Payload) -> ButtonPress | None:
    """A ``block_actions`` click on a button of ours (``quiz:<action>``) → ButtonPress.

    A Reveal button's value must be a round id: anything else (a huge number, a sign,
    an object) is refused here, before the core converts it.
    """
    press = checked(BLOCK_ACTIONS, body, "block_actions")
    clicked = checked(ACTION, action, "block_actions action")
    action_id = clicked["action_id"]
    if not action_id.startswith(ACTION_PREFIX):
        return None
    name = action_id.removeprefix(ACTION_PREFIX).partition(REPEAT_MARK)[0]
    value = clicked.get("value", "")
    if name == REVEAL_ACTION and round_id_from(value) is None:
        raise PayloadError("Slack block_actions: the Reveal button's value is not a round id")
    user = press["user"]
    team = (press.get("team") or {}).get("id") or user.get("team_id")
    if not team:
        raise PayloadError("Slack block_actions payload has no team id")
    container = press.get("container") or {}
    in_channel = press.get("channel")
    in_message = press.get("message")
    channel_id = (in_channel["id"] if in_channel else None) or container.get("channel_id")
    message_ts = (in_message["ts"] if in_message else None) or container.get("message_ts")
    if not channel_id or not message_ts:
        return None  # a button outside a channel message (e.g. a modal): not ours
    channel = channel_ref(team, channel_id)
    return ButtonPress(
        event_id=f"action:{press['trigger_id']}",
        channel=channel,
        message=MessageRef(channel, message_ts),
        member=member_ref(team, user["id"], user.get("name") or user.get("username") or ""),
        action=name,
        value=value,
    )
