"""Platform-neutral references to places and people on a chat platform.

Every reference carries the platform name and workspace (Slack team id,
Discord guild id, "local" on the console) so that one process and one
database can serve several platforms at once.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChannelRef:
    """A channel on a platform (workspace or guild, channel id, shown name)."""

    platform: str
    workspace: str
    channel_id: str
    name: str = ""

    def label(self) -> str:
        return f"{self.platform}:{self.name or self.channel_id}"


@dataclass(frozen=True, slots=True)
class MessageRef:
    """A message in a channel or thread; ``message_id`` is the platform's (Slack ts, Discord id)."""

    channel: ChannelRef
    message_id: str


@dataclass(frozen=True, slots=True)
class ThreadRef:
    """A thread: on Slack the parent message ts, on Discord the thread channel id."""

    channel: ChannelRef
    thread_id: str


@dataclass(frozen=True, slots=True)
class MemberRef:
    """A member on a platform, with the name to show."""

    platform: str
    workspace: str
    member_id: str
    display_name: str = ""

    def label(self) -> str:
        return self.display_name or self.member_id
