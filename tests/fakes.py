"""Test doubles for the core's ports: a clock that only moves when told, and a FakePlatform."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.kernel.errors import PlatformError
from bot.kernel.platform import DataFile
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.kernel.render import Card


class FakeClock:
    def __init__(self, start: datetime) -> None:
        self.current = start.astimezone(UTC)

    def now(self) -> datetime:
        return self.current

    def advance(self, **delta: float) -> datetime:
        self.current += timedelta(**delta)
        return self.current

    def set(self, moment: datetime) -> None:
        self.current = moment.astimezone(UTC)


class FakeMonotonic:
    """A monotonic clock and its sleep, for pacers: time moves only when they sleep.

    A sleep first yields to the event loop a few times, so a task the pacer has
    just let go runs before time moves on."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        for _ in range(3):
            await asyncio.sleep(0)
        self.slept.append(seconds)
        self.now += seconds


class SimulatedCrash(BaseException):
    """Raised by FakePlatform to stand for the process dying mid-send."""


@dataclass
class Sent:
    id: str
    channel: ChannelRef
    card: Card
    key: str
    thread: str | None = None  # None: posted in the channel


@dataclass
class FakePlatform:
    """Records what the bot sends; lets a test choose admins and inject failures."""

    name: str = "fake"
    admin_rule: str = "a member the test made an admin"
    admins: set[str] = field(default_factory=lambda: {"admin"})
    messages: list[Sent] = field(default_factory=list)
    threads: dict[str, str] = field(default_factory=dict)  # thread id -> parent message id
    reactions: list[tuple[str, str]] = field(default_factory=list)  # (message id, emoji)
    told: list[tuple[str, Card]] = field(default_factory=list)
    files: list[tuple[str, DataFile]] = field(default_factory=list)  # member, file (DMs)
    failures: list[BaseException] = field(default_factory=list)  # raised by the next sends
    crash_after_send: bool = False
    calls: int = 0
    shared: dict[str, list[str]] = field(default_factory=dict)  # key -> members of a group DM
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1000))

    def _maybe_fail(self) -> None:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)

    def _record(self, sent: Sent) -> MessageRef:
        self.messages.append(sent)
        if self.crash_after_send:
            self.crash_after_send = False
            raise SimulatedCrash(sent.key)
        return MessageRef(sent.channel, sent.id)

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        self._maybe_fail()
        return self._record(Sent(f"m{next(self._ids)}", channel, card, key))

    async def open_thread(self, message: MessageRef, title: str, *, key: str) -> ThreadRef:
        self._maybe_fail()
        thread_id = f"t{message.message_id}"
        if thread_id in self.threads:
            raise PlatformError("thread already exists")
        self.threads[thread_id] = message.message_id
        return ThreadRef(message.channel, thread_id)

    async def reply(self, thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        self._maybe_fail()
        sent = Sent(f"m{next(self._ids)}", thread.channel, card, key, thread=thread.thread_id)
        return self._record(sent)

    async def react(self, message: MessageRef, emoji: str) -> None:
        self._maybe_fail()
        if (message.message_id, emoji) not in self.reactions:
            self.reactions.append((message.message_id, emoji))

    async def tell(self, member: MemberRef, channel: ChannelRef, card: Card) -> None:
        self.told.append((member.member_id, card))

    async def find_sent(
        self, channel: ChannelRef, key: str, *, thread: ThreadRef | None = None
    ) -> MessageRef | None:
        where = thread.thread_id if thread else None
        for sent in self.messages:
            # by the channel's id, as a platform looks it up (the shown name is not stored)
            same = (sent.channel.platform, sent.channel.channel_id) == (
                channel.platform,
                channel.channel_id,
            )
            if sent.key == key and same and sent.thread == where:
                return MessageRef(channel, sent.id)
        return None

    async def is_admin(self, member: MemberRef, channel: ChannelRef) -> bool:
        return member.member_id in self.admins

    async def open_direct(self, member: MemberRef) -> ChannelRef:
        return ChannelRef(self.name, member.workspace, f"D-{member.member_id}", "DM")

    async def send_file(self, member: MemberRef, file: DataFile) -> str:
        self._maybe_fail()
        self.files.append((member.member_id, file))
        return "in your direct messages"

    async def open_shared(
        self,
        channel: ChannelRef,
        members: Sequence[MemberRef],
        title: str,
        *,
        key: str,
        again: bool = False,
    ) -> ChannelRef:
        """A shared conversation of exactly these members, the same for the same members."""
        self._maybe_fail()
        ids = sorted(m.member_id for m in members)
        self.shared[key] = ids
        return ChannelRef(self.name, channel.workspace, "G-" + "-".join(ids), title)

    async def link(self, message: MessageRef, thread: ThreadRef | None = None) -> str | None:
        where = f"{thread.thread_id}/" if thread else ""
        return f"https://chat.example/{message.channel.channel_id}/{where}{message.message_id}"

    # what tests look at

    def in_channel(self) -> list[Sent]:
        return [m for m in self.messages if m.thread is None]

    def in_thread(self, thread: str) -> list[Sent]:
        return [m for m in self.messages if m.thread == thread]

    def titles(self, thread: str | None = None) -> list[str]:
        sent = self.in_channel() if thread is None else self.in_thread(thread)
        return [m.card.title for m in sent]


class VirtualTime:
    """A monotonic clock and its sleep where time moves only when the test advances it.

    Unlike ``FakeMonotonic``, a sleeper does not move the time: it waits until the
    test advances the time past its deadline (a send that sleeps early stays asleep)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []  # every sleep asked for, in order
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        self.slept.append(seconds)
        woken = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + seconds, woken))
        await woken

    def advance(self, seconds: float) -> None:
        """Move the time on and wake every sleeper whose deadline has come."""
        self.now += seconds
        waiting = []
        for deadline, woken in self._sleepers:
            if deadline <= self.now:
                if not woken.done():
                    woken.set_result(None)
            else:
                waiting.append((deadline, woken))
        self._sleepers = waiting


class ChannelPacedPlatform(FakePlatform):
    """A FakePlatform that spaces the messages of one channel ``interval`` seconds apart,
    as Slack's pacing does, sleeping inside the send when one comes too early; it reports
    the wait ahead (``send_delay``) so the outbox can put the message off instead."""

    def __init__(self, time: VirtualTime, interval: float = 1.0) -> None:
        super().__init__()
        self.time = time
        self.interval = interval
        self._next: dict[str, float] = {}

    def send_delay(self, channel: ChannelRef) -> float:
        return max(0.0, self._next.get(channel.channel_id, 0.0) - self.time.monotonic())

    async def _paced(self, channel: ChannelRef) -> None:
        await self.time.sleep(self.send_delay(channel))
        self._next[channel.channel_id] = self.time.monotonic() + self.interval

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        await self._paced(channel)
        return await super().post(channel, card, key=key)

    async def reply(self, thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        await self._paced(thread.channel)
        return await super().reply(thread, card, key=key)
