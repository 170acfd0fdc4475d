"""The console platform: the whole quiz loop in a terminal, no tokens needed.

One channel, ``#practice``, and each member's direct messages with the bot. What the bot
and the members say is printed as a transcript; lines in a round's thread are marked with
the thread's name, lines in direct messages with ``[DM › member]``.
"""

from __future__ import annotations

import itertools
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.render import Card, Image

CONSOLE_CHANNEL = ChannelRef("console", "local", "practice", "#practice")
BOT_NAME = "quizbot"
DIRECT_PREFIX = "dm-"


def direct_channel(member: str) -> ChannelRef:
    """The console's direct messages between ``member`` and the bot."""
    return ChannelRef(
        CONSOLE_CHANNEL.platform, CONSOLE_CHANNEL.workspace, DIRECT_PREFIX + member, "DM"
    )


def direct_member(channel: ChannelRef) -> str | None:
    """The member whose direct messages ``channel`` is; None for #practice."""
    if channel.channel_id.startswith(DIRECT_PREFIX):
        return channel.channel_id.removeprefix(DIRECT_PREFIX)
    return None


WRAP_WIDTH = 88


def render_card(card: Card) -> list[str]:
    """A card as plain-text lines, long paragraphs wrapped (the console's renderer)."""
    lines: list[str] = []
    for line in card.plain_text().splitlines():
        indent = "  " if line.startswith("• ") else ""
        lines.extend(textwrap.wrap(line, WRAP_WIDTH, subsequent_indent=indent) or [""])
    return lines or [""]


@dataclass
class ConsolePlatform:
    """The console as a platform: prints what the bot sends to one channel, #practice."""

    out: TextIO
    admins: set[str] = field(default_factory=lambda: {"you"})
    name: str = "console"
    admin_rule: str = "switch with ':as NAME admin'"
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _chart_numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _sent_keys: dict[str, str] = field(default_factory=dict)
    _thread_names: dict[str, str] = field(default_factory=dict)
    charts_dir: Path | None = None  # None: a temporary directory made for the first chart

    def where(self, thread: str | None, direct: str | None = None) -> str:
        channel = CONSOLE_CHANNEL.name
        if direct is not None:
            return f"[DM › {direct}]"
        if thread is None:
            return f"[{channel}]"
        return f"[{channel} › {self._thread_names.get(thread, 'thread')}]"

    def say(
        self, thread: str | None, speaker: str, lines: list[str], direct: str | None = None
    ) -> None:
        where = self.where(thread, direct)
        self.out.write(f"{where} {speaker}: {lines[0]}\n")
        pad = " " * (len(where) + 1)
        for line in lines[1:]:
            self.out.write(f"{pad}  {line}\n" if line else "\n")
        self.out.flush()

    def note(self, text: str) -> None:
        self.out.write(f"  ({text})\n")
        self.out.flush()

    def show(self, thread: str | None, speaker: str, card: Card, direct: str | None = None) -> None:
        """Print the card; its picture, if any, is written as a PNG file and its path noted."""
        self.say(thread, speaker, render_card(card), direct)
        if card.image is not None:
            self.note(f"chart: {self.write_chart(card.image)}")

    def write_chart(self, image: Image) -> Path:
        if self.charts_dir is None:
            self.charts_dir = Path(tempfile.mkdtemp(prefix="quizbot-charts-"))
        self.charts_dir.mkdir(parents=True, exist_ok=True)
        stem = Path(image.filename).stem
        path = self.charts_dir / f"{stem}-{next(self._chart_numbers)}.png"
        path.write_bytes(image.png)
        return path

    # Platform

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        message = f"m{next(self._ids)}"
        self.show(None, BOT_NAME, card, direct_member(channel))
        self._sent_keys[key] = message
        return MessageRef(channel, message)

    async def open_thread(self, message: MessageRef, title: str, *, key: str) -> ThreadRef:
        thread = f"thread-{message.message_id}"
        self._thread_names[thread] = title
        self.note(f"{BOT_NAME} opened the thread “{title}”: reply there with any line")
        return ThreadRef(message.channel, thread)

    async def reply(self, thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        message = f"m{next(self._ids)}"
        self.show(thread.thread_id, BOT_NAME, card)
        self._sent_keys[key] = message
        return MessageRef(thread.channel, message)

    async def react(self, message: MessageRef, emoji: str) -> None:
        self.note(f"{BOT_NAME} reacted {emoji} to the question")

    async def tell(self, member: MemberRef, channel: ChannelRef, card: Card) -> None:
        self.show(None, f"{BOT_NAME} → {member.label()} (private)", card, direct_member(channel))

    async def open_direct(self, member: MemberRef) -> ChannelRef:
        return direct_channel(member.member_id)

    async def find_sent(
        self, channel: ChannelRef, key: str, *, thread: ThreadRef | None = None
    ) -> MessageRef | None:
        message = self._sent_keys.get(key)
        return MessageRef(channel, message) if message else None

    async def is_admin(self, member: MemberRef, channel: ChannelRef) -> bool:
        return member.member_id in self.admins

    async def link(self, message: MessageRef, thread: ThreadRef | None = None) -> str | None:
        return None  # a transcript has no links
