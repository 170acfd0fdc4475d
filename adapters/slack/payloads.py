"""The Slack payloads the quiz reads, as TypedDicts checked by pydantic at the edge.

Only the fields the quiz uses are declared; others pass unchecked. A payload
whose declared fields have another type (an object where Slack sends a string,
``"user": {"id": ...}``, a list for ``item``) fails validation and is ignored
instead of reaching the core. ``route`` tells, before bolt looks at a request,
whether one of the quiz's listeners takes it; everything else is acknowledged
and ignored, so Slack does not deliver it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypeVar

from pydantic import TypeAdapter, ValidationError

# pydantic reads TypedDicts from typing_extensions on Python < 3.12
from typing_extensions import TypedDict

from adapters.slack.render import ACTION_PREFIX, FORM_PREFIX
from bot.kernel.errors import QuizError

QUIZ_COMMAND = "/quiz"
# The app was removed from a workspace, or its tokens revoked (no authorization needed).
REMOVAL_EVENTS = frozenset({"app_uninstalled", "tokens_revoked"})
# A member opened the app's Home tab: their page is published (adapters/slack/home.py).
HOME_EVENT = "app_home_opened"
HOME_ACTION_PREFIX = "quizhome:"  # a button of the Home tab
EVENT_TYPES = frozenset({"reaction_added", "message", HOME_EVENT, *REMOVAL_EVENTS})
# Requests bolt answers itself (URL verification when the Request URL is saved).
BOLT_TYPES = frozenset({"url_verification", "ssl_check"})

Route = Literal["event", "command", "action", "view", "bolt"]


class Authorization(TypedDict):
    """One entry of an Events API envelope's ``authorizations``."""

    team_id: NotRequired[str]


class ReactionItem(TypedDict):
    """The message a reaction was added to."""

    type: str
    channel: NotRequired[str]
    ts: NotRequired[str]


class ReactionAdded(TypedDict):
    """The ``reaction_added`` event."""

    type: Literal["reaction_added"]
    user: str
    reaction: str
    item: ReactionItem


class MessageFields(TypedDict):
    """The fields of a message, in a ``message`` event and in an edit's new message."""

    subtype: NotRequired[str | None]
    user: NotRequired[str]
    bot_id: NotRequired[str | None]
    text: NotRequired[str | None]
    ts: NotRequired[str]
    thread_ts: NotRequired[str]


class MessageEvent(MessageFields):
    """A ``message`` event; an edit carries the new text in ``message``."""

    type: Literal["message"]
    channel: NotRequired[str]
    channel_type: NotRequired[str]  # "im" in the bot's direct messages
    message: NotRequired[MessageFields]


class ReactionEnvelope(TypedDict):
    """The Events API envelope of a ``reaction_added`` event."""

    event_id: str
    team_id: NotRequired[str]
    authorizations: NotRequired[list[Authorization]]
    event: ReactionAdded


class MessageEnvelope(TypedDict):
    """The Events API envelope of a ``message`` event."""

    event_id: str
    team_id: NotRequired[str]
    authorizations: NotRequired[list[Authorization]]
    event: MessageEvent


class RevokedTokens(TypedDict):
    """The tokens a ``tokens_revoked`` event names: user ids under ``oauth``, bots under ``bot``."""

    bot: NotRequired[list[str]]


class RemovalEvent(TypedDict):
    """``app_uninstalled`` or ``tokens_revoked``."""

    type: Literal["app_uninstalled", "tokens_revoked"]
    tokens: NotRequired[RevokedTokens]


class RemovalEnvelope(TypedDict):
    """The Events API envelope of a removal; ``event_time`` (whole seconds since the epoch)
    is when Slack sent the event, the same on each delivery of it."""

    event_id: str
    team_id: str
    event_time: NotRequired[int]
    event: RemovalEvent


class SlashCommand(TypedDict):
    """The form fields of a slash command request."""

    team_id: str
    channel_id: str
    user_id: str
    trigger_id: str
    text: NotRequired[str]
    user_name: NotRequired[str]
    channel_name: NotRequired[str]  # "directmessage" in an IM with the bot, "mpdm-…" in a group DM


class ActionUser(TypedDict):
    """The member who pressed a button."""

    id: str
    name: NotRequired[str]
    username: NotRequired[str]
    team_id: NotRequired[str]


class Team(TypedDict):
    """The workspace of an interaction."""

    id: NotRequired[str]


class Channel(TypedDict):
    """The channel of an interaction."""

    id: str


class Container(TypedDict):
    """Where the message with the pressed button is."""

    channel_id: NotRequired[str]
    message_ts: NotRequired[str]


class MessageStamp(TypedDict):
    """The message with the pressed button."""

    ts: str


class Action(TypedDict):
    """One pressed button: its action id and value."""

    action_id: str
    value: NotRequired[str]


class BlockActions(TypedDict):
    """A ``block_actions`` interaction: a member pressed a button."""

    type: Literal["block_actions"]
    trigger_id: str
    user: ActionUser
    actions: list[Action]
    team: NotRequired[Team | None]
    channel: NotRequired[Channel | None]
    container: NotRequired[Container | None]
    message: NotRequired[MessageStamp | None]


T = TypeVar("T")


class PayloadError(QuizError, ValueError):
    """A payload lacks a field the quiz needs, or has one of another type (says where)."""


def checked(adapter: TypeAdapter[T], payload: object, what: str) -> T:
    """``payload`` as ``T`` (its declared fields checked), else :class:`PayloadError`
    naming the first wrong field, never its value."""
    try:
        return adapter.validate_python(payload)
    except ValidationError as error:
        first = error.errors(include_input=False, include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "the payload"
        raise PayloadError(f"Slack {what}: {where}: {first['msg']}") from None


REACTION_ENVELOPE = TypeAdapter(ReactionEnvelope)
MESSAGE_ENVELOPE = TypeAdapter(MessageEnvelope)
REMOVAL_ENVELOPE = TypeAdapter(RemovalEnvelope)
SLASH_COMMAND = TypeAdapter(SlashCommand)
BLOCK_ACTIONS = TypeAdapter(BlockActions)
ACTION = TypeAdapter(Action)


def route(body: Any) -> Route | None:
    """Which of the quiz's listeners takes this request body; None: none does."""
    if not isinstance(body, Mapping):
        return None
    kind = body.get("type")
    if kind in BOLT_TYPES:
        return "bolt"
    if kind == "event_callback":
        event = body.get("event")
        if isinstance(event, Mapping) and event.get("type") in EVENT_TYPES:
            return "event"
        return None
    if body.get("command") == QUIZ_COMMAND:
        return "command"
    if kind == "view_submission":
        view = body.get("view")
        callback = view.get("callback_id") if isinstance(view, Mapping) else None
        ours = isinstance(callback, str) and callback.startswith(FORM_PREFIX)
        return "view" if ours and view.get("type") == "modal" else None  # type: ignore[union-attr]
    if kind == "block_actions":
        actions = body.get("actions")
        first = actions[0] if isinstance(actions, list) and actions else None
        action_id = first.get("action_id") if isinstance(first, Mapping) else None
        if isinstance(action_id, str) and action_id.startswith((ACTION_PREFIX, HOME_ACTION_PREFIX)):
            return "action"
    return None


def describe(body: Any) -> str:
    """A short name for a request body in a log line (its kinds, never its content)."""
    if not isinstance(body, Mapping):
        return f"a {type(body).__name__} body"
    parts = [str(body.get("type") or body.get("command") or "untyped")]
    event = body.get("event")
    if isinstance(event, Mapping):
        parts.append(str(event.get("type")))
    elif "event" in body:
        parts.append(f"event of type {type(event).__name__}")
    return " ".join(parts)[:120]
