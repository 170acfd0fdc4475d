"""Keep the bot process's REST calls under Discord's global rate limit, before sending.

Discord allows a bot 50 requests per second across all routes and bans the IP
for an hour after 10,000 invalid requests (429s included) in 10 minutes, so the
process paces itself instead of learning the limit from 429s.

The pacer hooks into aiohttp's ``on_request_start`` trace, which discord.py's
session awaits right before each request goes out: after discord.py has
acquired the route's bucket (its per-route limits, learnt from the
``X-RateLimit-*`` headers, are respected first) and for every retry too.
Interaction callbacks and follow-ups (``/interactions/...``, ``/webhooks/...``)
are not bound to the global limit and are never held back; neither are the
gateway connection and CDN downloads, which are not REST calls.

The rate is a setting (``QUIZBOT_DISCORD_REQUESTS_PER_SECOND``, 45 by default):
a process that runs some of the bot's shards paces at its share of the budget.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from types import SimpleNamespace

import aiohttp
from discord.http import Route

DISCORD_GLOBAL_LIMIT = 50.0
DEFAULT_REQUESTS_PER_SECOND = 45.0
EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")
# How long a request may take, from its turn to its answer, with the pacer's budget still
# in use: a round sends its question, thread and hint one after the other, so the budget
# is only used when rate x round trip requests are in flight (45/s x 300 ms: 14).
ROUND_TRIP_ALLOWANCE = 2.0


def send_slots(rate: float | None) -> int:
    """Rounds for the outbox to send at once at ``rate`` paced requests a second (0 when
    not paced: the outbox's own number): requests beyond what is in flight wait their
    turn in the pacer, which never lets more than ``rate`` a second go."""
    return 0 if rate is None else math.ceil(rate * ROUND_TRIP_ALLOWANCE)


class GlobalPacer:
    """Lets requests go one at a time, at least ``1/rate`` seconds apart, so never more
    than ``rate`` go out in any second. Waiting posts go before waiting reactions: a
    reaction (the hint on a question) can wait, a question should be out on time."""

    def __init__(
        self,
        rate: float,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("the request rate must be positive")
        self._interval = 1.0 / rate
        self._monotonic = monotonic
        self._sleep = sleep
        self._next = 0.0
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._deferrable: deque[asyncio.Future[None]] = deque()
        self._releaser: asyncio.Task[None] | None = None

    @property
    def waiting(self) -> int:
        return len(self._urgent) + len(self._deferrable)

    async def wait(self, *, deferrable: bool = False) -> None:
        """Return at this caller's turn (at once when the budget has room)."""
        now = self._monotonic()
        if not self.waiting and now >= self._next:
            self._next = now + self._interval
            return
        turn = asyncio.get_running_loop().create_future()
        (self._deferrable if deferrable else self._urgent).append(turn)
        if self._releaser is None or self._releaser.done():
            self._releaser = asyncio.create_task(self._release(), name="discord-pacer")
        await turn  # a cancelled waiter is skipped by the releaser

    async def _release(self) -> None:
        while self.waiting:
            now = self._monotonic()
            if now < self._next:
                await self._sleep(self._next - now)
                continue
            queue = self._urgent or self._deferrable
            turn = queue.popleft()
            if turn.done():
                continue
            turn.set_result(None)
            # Keep the cadence (sleeps overshoot a little); restart it after a pause.
            behind = now - self._next >= self._interval
            self._next = (now if behind else self._next) + self._interval


def is_paced(url: str) -> bool:
    """A REST call bound to the global limit (under discord.py's current API base)."""
    base = Route.BASE.rstrip("/")
    if not url.startswith(base + "/"):
        return False
    return not url[len(base) :].startswith(EXEMPT_PREFIXES)


def pacing_trace(pacer: GlobalPacer) -> aiohttp.TraceConfig:
    """An aiohttp trace that holds each paced request until the pacer gives its turn."""

    async def before_request(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        url = str(params.url)
        if is_paced(url):
            await pacer.wait(deferrable="/reactions/" in url)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(before_request)
    return trace
