"""A malformed gateway frame is logged in one line and skipped; it never ends the connection.

discord.py parses each frame (JSON, then the event's parser) inside the loop
that reads the websocket: one exception there, say a MESSAGE_CREATE whose
``author`` is null, ends ``Client.connect`` for good. :class:`GuardedState`
wraps every new websocket's ``received_message`` so that such an error skips
the frame instead. Exceptions that steer the connection (reconnect, closed,
network errors) pass through untouched.

An interaction that does not say who sent it (no ``member`` in a guild, no ``user``
elsewhere) parses without error but leaves ``Interaction.user`` missing, and every
handler after it (commands, autocomplete, buttons, forms) would fail on it with a
traceback; the state skips it where all interactions arrive, in one line too.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

import aiohttp
from discord.errors import ConnectionClosed
from discord.gateway import DiscordWebSocket, ReconnectWebSocket
from discord.state import AutoShardedConnectionState, ConnectionState

log = logging.getLogger(__name__)

REPEAT_SECONDS = 60.0
PASS_THROUGH = (ReconnectWebSocket, ConnectionClosed, OSError, aiohttp.ClientError)


def frame_kind(frame: Any) -> str:
    """What a frame claims to be, for the log: its event name, op code or "not JSON"."""
    if isinstance(frame, bytes):
        return "compressed frame"
    try:
        decoded = json.loads(frame)
    except (TypeError, ValueError):
        return "frame that is not JSON"
    if not isinstance(decoded, dict):
        return f"frame that is a JSON {type(decoded).__name__}"
    event = decoded.get("t")
    if isinstance(event, str):
        return f"{event[:40]} frame"
    return f"op {str(decoded.get('op'))[:10]} frame"


class FrameGuard:
    """Logs each skipped frame in one line; the same fault again within a minute at debug."""

    def __init__(self, *, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self._last_logged: dict[tuple[str, str], float] = {}

    def skip(self, frame: Any, error: Exception) -> None:
        kind = frame_kind(frame)
        key = (kind, type(error).__name__)
        now = self._monotonic()
        repeated = now - self._last_logged.get(key, -REPEAT_SECONDS) < REPEAT_SECONDS
        if not repeated:
            self._last_logged[key] = now
        log.log(
            logging.DEBUG if repeated else logging.WARNING,
            "skipped a malformed Discord gateway %s: %s: %s",
            kind,
            type(error).__name__,
            str(error)[:200],
        )

    def ignore(self, what: str) -> None:
        """Log a payload that parsed but cannot be handled, throttled as :meth:`skip`."""
        key = (what, "")
        now = self._monotonic()
        repeated = now - self._last_logged.get(key, -REPEAT_SECONDS) < REPEAT_SECONDS
        if not repeated:
            self._last_logged[key] = now
        log.log(logging.DEBUG if repeated else logging.WARNING, "ignored %s", what)

    def watch(self, ws: DiscordWebSocket) -> None:
        received = ws.received_message

        async def received_message(msg: Any, /) -> None:
            try:
                await received(msg)
            except PASS_THROUGH:
                raise
            except Exception as error:
                self.skip(msg, error)

        ws.received_message = received_message  # type: ignore[method-assign]


def names_its_sender(data: Any) -> bool:
    """Whether an INTERACTION_CREATE payload says who sent it where discord.py looks: the
    ``member`` (with its ``user``) in a guild, the ``user`` elsewhere."""
    if not isinstance(data, dict):
        return True  # discord.py fails on it, and the frame guard logs that
    if _in_a_guild(data.get("guild_id")):
        member = data.get("member")
        return isinstance(member, dict) and isinstance(member.get("user"), dict)
    return isinstance(data.get("user"), dict)


def _in_a_guild(guild_id: object) -> bool:
    """As discord.py reads ``guild_id``: absent, empty or 0 means no guild."""
    if not guild_id:
        return False
    try:
        return int(str(guild_id)) != 0
    except ValueError:
        return True  # discord.py fails on it, and the frame guard logs that


class GuardedState(ConnectionState[Any]):
    """discord.py's connection state, handing each new websocket to a :class:`FrameGuard`
    and skipping interactions that name no sender."""

    def __init__(self, guard: FrameGuard, **options: Any) -> None:
        super().__init__(**options)
        self.frame_guard = guard

    def _update_references(self, ws: DiscordWebSocket) -> None:
        super()._update_references(ws)
        self.frame_guard.watch(ws)

    def parse_interaction_create(self, data: Any) -> None:
        if not names_its_sender(data):
            kind = data.get("type")
            self.frame_guard.ignore(
                f"a Discord interaction without a member or user (type {str(kind)[:10]}):"
                " nobody to answer"
            )
            return
        super().parse_interaction_create(data)


class GuardedShardedState(GuardedState, AutoShardedConnectionState[Any]):
    """The same guard for a client that runs several shards (one websocket each): the
    method order puts GuardedState's hooks before the sharded state's own."""
