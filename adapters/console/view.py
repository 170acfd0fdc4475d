"""Where things happen on the console: #practice, each member's direct messages with the
bot, and the round a plain line answers."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.kernel.refs import ChannelRef

CONSOLE_CHANNEL = ChannelRef("console", "local", "practice", "#practice")
DIRECT_PREFIX = "dm-"
OWNER = "you"


def direct_channel(member: str) -> ChannelRef:
    """The console's direct messages between ``member`` and the bot."""
    return ChannelRef(
        CONSOLE_CHANNEL.platform, CONSOLE_CHANNEL.workspace, DIRECT_PREFIX + member, "DM"
    )


SHARED_PREFIX = "group-"


def shared_channel(members: list[str]) -> ChannelRef:
    """The console's shared DM view of a few members and the bot (a mock-interview pair)."""
    return ChannelRef(
        CONSOLE_CHANNEL.platform,
        CONSOLE_CHANNEL.workspace,
        SHARED_PREFIX + "+".join(members),
        "shared DM",
    )


def shared_members(channel: ChannelRef) -> str | None:
    """``ann, bob`` for the shared DM view of ann and bob; None for any other channel."""
    if channel.channel_id.startswith(SHARED_PREFIX):
        return ", ".join(channel.channel_id.removeprefix(SHARED_PREFIX).split("+"))
    return None


def direct_member(channel: ChannelRef) -> str | None:
    """The member whose direct messages ``channel`` is; None for #practice."""
    if channel.channel_id.startswith(DIRECT_PREFIX):
        return channel.channel_id.removeprefix(DIRECT_PREFIX)
    return None


@dataclass
class ShownRound:
    """The round whose thread the console showed last in #practice: a plain line answers it,
    ``:react`` reacts to its question or to one of the answers typed in its thread."""

    question: str  # the question's message id
    thread: str  # the thread's id
    answers: list[tuple[str, str]] = field(default_factory=list)  # (message id, member), in order


@dataclass
class ConsoleView:
    """What the console knows of the chat: who is an admin and the round on view. It is built
    only from what the console sent and was given to show, never from the store."""

    admins: set[str] = field(default_factory=lambda: {OWNER})
    shown: ShownRound | None = None
