"""A Platform for benchmarks: answers at once, keeps no history, and reports what it is handed.

Stands for a platform with rate limits off, so the figures are the bot's own cost.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable

from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.kernel.render import Card

Observer = Callable[[str, str, float], None]  # (method, outbox key, perf_counter)


class BenchPlatform:
    def __init__(self, name: str = "slack", observer: Observer | None = None) -> None:
        self.name = name
        self.admin_rule = "nobody: benchmarks run no commands"
        self.calls = 0
        self.posts = 0
        self.first_post_at: float | None = None
        self.last_post_at: float | None = None
        self._observer = observer
        self._ids = itertools.count(1)
        self._awaited = 0
        self._reached = asyncio.Event()

    async def until_calls(self, count: int) -> None:
        """Return once the platform was called ``count`` times in all."""
        self._awaited = count
        if self.calls < count:
            self._reached.clear()
            await self._reached.wait()

    def _seen(self, method: str, key: str) -> None:
        self.calls += 1
        if self._awaited and self.calls >= self._awaited:
            self._reached.set()
        now = time.perf_counter()
        if method == "post":
            self.posts += 1
            self.first_post_at = self.first_post_at or now
            self.last_post_at = now
        if self._observer is not None:
            self._observer(method, key, now)

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        self._seen("post", key)
        return MessageRef(channel, f"m{next(self._ids)}")

    async def open_thread(self, message: MessageRef, title: str, *, key: str) -> ThreadRef:
        self._seen("open_thread", key)
        return ThreadRef(message.channel, f"t{message.message_id}")

    async def reply(self, thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        self._seen("reply", key)
        return MessageRef(thread.channel, f"m{next(self._ids)}")

    async def react(self, message: MessageRef, emoji: str) -> None:
        self._seen("react", "")

    async def tell(self, member: MemberRef, channel: ChannelRef, card: Card) -> None:
        self._seen("tell", "")

    async def find_sent(
        self, channel: ChannelRef, key: str, *, thread: ThreadRef | None = None
    ) -> MessageRef | None:
        self._seen("find_sent", key)
        return None

    async def is_admin(self, member: MemberRef, channel: ChannelRef) -> bool:
        return True

    async def link(self, message: MessageRef, thread: ThreadRef | None = None) -> str | None:
        return None
