"""Typed inbound events, built by adapters from platform payloads.

Each event carries the platform's own event id, which the engine uses to drop
duplicates (Slack retries, gateway replays). Adapters that have no event id
derive a stable one from the payload (e.g. ``reaction:<message>:<member>:<emoji>``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef


@dataclass(frozen=True, slots=True)
class Reaction:
    """A member reacted to a message in a quiz channel."""

    event_id: str
    channel: ChannelRef
    message: MessageRef
    member: MemberRef
    emoji: str
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class Reply:
    """A message posted (or edited, with ``edited=True``) inside a thread."""

    event_id: str
    channel: ChannelRef
    thread: ThreadRef
    message: MessageRef
    member: MemberRef
    text: str
    edited: bool = False
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class Command:
    """``/quiz leaderboard week`` arrives as ``name="leaderboard", args=("week",)``.

    ``direct`` is True when it was run in the member's direct messages with the bot (a
    Slack IM, a Discord DM, the console's ``:dm``) rather than in a channel.

    ``text`` is the raw text the arguments were split from, when the platform has one
    (Slack's command text, a console line; see :func:`split_command`):
    free text at the end (an answer, a reason) is taken from it exactly as typed. Without
    it (Discord's options) each argument is as the platform gave it, free text in one.
    """

    event_id: str
    channel: ChannelRef
    member: MemberRef
    name: str
    args: tuple[str, ...] = field(default_factory=tuple)
    direct: bool = False
    text: str | None = None


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A member pressed a button on one of the bot's cards."""

    event_id: str
    channel: ChannelRef
    message: MessageRef
    member: MemberRef
    action: str
    value: str = ""


@dataclass(frozen=True, slots=True)
class FormSubmit:
    """A filled-in :class:`~bot.kernel.forms.Form`: its kind and target, and each field's value."""

    event_id: str
    channel: ChannelRef
    member: MemberRef
    kind: str
    target: str
    values: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class DirectMessage:
    """A message a member sent the bot in their direct messages (``channel`` is the DM)."""

    event_id: str
    channel: ChannelRef
    message: MessageRef
    member: MemberRef
    text: str
    is_bot: bool = False


Event = Reaction | Reply | Command | ButtonPress | FormSubmit | DirectMessage


def split_command(text: str) -> tuple[str, tuple[str, ...], str]:
    """``leaderboard  week`` → ``("leaderboard", ("week",), "  week")``: the subcommand's
    name, the words of its arguments and their raw text (for a free-text parameter)."""
    first = text.split(maxsplit=1)
    if not first:
        return "", (), ""
    rest = text.lstrip()[len(first[0]) :]
    return first[0], tuple(rest.split()), rest
