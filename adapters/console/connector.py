"""The console platform: the whole quiz loop in a terminal, no tokens needed.

One channel, ``#practice``, and each member's direct messages with the bot. Like the Slack
and Discord connectors, the runtime starts and stops it; it turns input lines into events
for the core (:mod:`adapters.console.session`) and prints what it is given to send
(:mod:`adapters.console.render`). It never reads the store: the round a plain line answers
is the one whose thread it opened last, or the one it was told of at start-up
(:meth:`ConsolePlatform.show_round`).
"""

from __future__ import annotations

import asyncio
import itertools
import tempfile
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from adapters.console.render import BOT_NAME, Transcript
from adapters.console.session import ConsoleSession, PassTime, nothing_to_wait_for
from adapters.console.view import (
    CONSOLE_CHANNEL,
    ConsoleView,
    ShownRound,
    direct_channel,
    direct_member,
    shared_channel,
    shared_members,
)
from bot.kernel.platform import DataFile
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.kernel.render import Card
from bot.kernel.runtime import EventHandler

# Given the prompt to show before each line (a terminal's), yields the input lines.
LineSource = Callable[[Callable[[], str]], AsyncIterator[str]]


async def _no_input(prompt: Callable[[], str]) -> AsyncIterator[str]:
    return
    yield  # an async generator that yields nothing


@dataclass
class ConsolePlatform:
    """The console as a platform and a connector: reads ``lines`` once started, prints what
    the bot sends to #practice and the members' direct messages."""

    out: TextIO
    lines: LineSource = _no_input
    echo: bool = False  # print input lines too (scripts); a terminal already shows them
    charts_dir: Path | None = None  # None: a temporary directory, removed at stop
    # where a member's exports are written; None: the charts directory if given, else a
    # directory made for them that stays after the console stops (it holds their data)
    exports_dir: Path | None = None
    greeting: str | None = None  # printed once started (an interactive terminal)
    name: str = "console"
    admin_rule: str = "switch with ':as NAME admin'"
    view: ConsoleView = field(default_factory=ConsoleView)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    # the bot's message ids name the run: a later run on the same database must not give its
    # question the id of an earlier run's, whose round the store would find instead
    _run: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    _sent_keys: dict[str, str] = field(default_factory=dict)
    _settle: Callable[[], Awaitable[None]] = nothing_to_wait_for
    _pass_time: PassTime | None = None
    _reading: asyncio.Task[None] | None = None
    _transcript: Transcript | None = None

    @property
    def transcript(self) -> Transcript:
        if self._transcript is None:
            self._transcript = Transcript(self.out, self.charts_dir)
        return self._transcript

    def session(self, handler: EventHandler) -> ConsoleSession:
        """A session turning lines into events for ``handler``, sharing this console's view."""
        return ConsoleSession(
            handler, self.transcript, self.view, self.echo, self._settle, self._pass_time
        )

    def let_time_pass(self, pass_time: PassTime) -> None:
        """``:wait DURATION`` lets time pass through ``pass_time`` (a script's console, on
        which nothing scheduled fires by itself)."""
        self._pass_time = pass_time

    def after_each_line(self, settle: Callable[[], Awaitable[None]]) -> None:
        """Wait for ``settle`` (the work a line set off) before reading the next line, so a
        script's transcript does not depend on timing."""
        self._settle = settle

    def show_round(self, shown: ShownRound | None) -> None:
        """The round a plain line answers, as it was before this process started."""
        self.view.shown = shown

    # Connector

    async def start(self, handler: EventHandler) -> None:
        session = self.session(handler)
        if self.greeting:
            self.transcript.note(self.greeting)
        self._reading = asyncio.create_task(
            session.run(self.lines(session.prompt)), name="console-input"
        )

    async def until_input_ends(self) -> None:
        """Returns when the input ends or a member types ``:quit``; raises what the reading
        raised."""
        if self._reading is not None:
            await asyncio.shield(self._reading)

    async def stop(self) -> None:
        reading, self._reading = self._reading, None
        if reading is not None and not reading.done():
            reading.cancel()
            await asyncio.gather(reading, return_exceptions=True)
        self.transcript.close()

    @property
    def connected(self) -> bool:
        return self._reading is not None and not self._reading.done()

    # Platform

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        message = f"m{self._run}-{next(self._ids)}"
        self.transcript.show(
            None, BOT_NAME, card, direct_member(channel) or shared_members(channel)
        )
        self._sent_keys[key] = message
        return MessageRef(channel, message)

    async def open_thread(self, message: MessageRef, title: str, *, key: str) -> ThreadRef:
        thread = f"thread-{message.message_id}"
        self.transcript.thread_names[thread] = title
        self.transcript.note(f"{BOT_NAME} opened the thread “{title}”: reply there with any line")
        if message.channel == CONSOLE_CHANNEL:
            self.view.shown = ShownRound(message.message_id, thread)
        return ThreadRef(message.channel, thread)

    async def reply(self, thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        message = f"m{self._run}-{next(self._ids)}"
        self.transcript.show(thread.thread_id, BOT_NAME, card)
        self._sent_keys[key] = message
        shown = self.view.shown
        if card.answer_by and shown is not None and shown.thread == thread.thread_id:
            shown.answers.append((message, card.answer_by))  # `:react 👍 #N` votes for it
        return MessageRef(thread.channel, message)

    async def react(self, message: MessageRef, emoji: str) -> None:
        self.transcript.note(f"{BOT_NAME} reacted {emoji} to the question")

    async def tell(self, member: MemberRef, channel: ChannelRef, card: Card) -> None:
        self.transcript.tell(member.label(), card, direct_member(channel))

    async def open_direct(self, member: MemberRef) -> ChannelRef:
        return direct_channel(member.member_id)

    async def send_file(self, member: MemberRef, file: DataFile) -> str:
        """The core's ``SendsFiles``: the file is written on disk and its path told."""
        folder = self.exports_dir or self.charts_dir
        if folder is None:
            folder = self.exports_dir = Path(tempfile.mkdtemp(prefix="quizbot-exports-"))
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{member.member_id}-{file.filename}"
        stem, suffix, number = path.stem, path.suffix, 1
        while path.exists():  # a second export of the day keeps the first
            number += 1
            path = folder / f"{stem}-{number}{suffix}"
        await asyncio.to_thread(path.write_bytes, file.content)
        return f"written to {path}"

    async def open_shared(
        self,
        channel: ChannelRef,
        members: Sequence[MemberRef],
        title: str,
        *,
        key: str,
        again: bool = False,
    ) -> ChannelRef:
        """A shared DM view of ``members`` (the console shows it as ``[DM › ann, bob]``)."""
        return shared_channel(sorted(m.member_id for m in members))

    async def find_sent(
        self, channel: ChannelRef, key: str, *, thread: ThreadRef | None = None
    ) -> MessageRef | None:
        message = self._sent_keys.get(key)
        return MessageRef(channel, message) if message else None

    async def is_admin(self, member: MemberRef, channel: ChannelRef) -> bool:
        return member.member_id in self.view.admins

    async def link(self, message: MessageRef, thread: ThreadRef | None = None) -> str | None:
        return None  # a transcript has no links
