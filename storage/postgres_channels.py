"""Channels on PostgreSQL, which tell every replica of each change (``ChannelChanges``),
and so of the bank's questions and the members' reminders.

The transaction that creates or changes a channel also sends ``NOTIFY quizbot_channels``
with ``<schema>:<channel id>``: PostgreSQL delivers it, once committed, to every
connection listening on that name, so each replica reads the channel again. The schema
in the payload keeps installations in other schemas of the database from waking this one.
A question's texts (a workspace's own question, an override) announce themselves on
``quizbot_questions`` with the question's id, a reminder on ``quizbot_reminders`` with
its member's id (``_announce``, which the bank and reminder stores are given).

Each row's ``xmin`` (the transaction that wrote its current version) is its version:
any update changes it, so comparing them finds what an announcement missed, with no
column of its own to keep. A question's version is the sum of its texts' (its own row,
each workspace's override): any of them changing, or a new one, changes the sum.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Self

from bot.kernel.stores import ChangeKind
from storage.errors import StoreUnavailableError
from storage.postgres_connection import PgConnection
from storage.sqlite_channels import SqliteChannels

if TYPE_CHECKING:
    import aiosqlite
    import asyncpg

log = logging.getLogger(__name__)

CHANNEL_NOTICES = "quizbot_channels"
NOTICES = {
    ChangeKind.CHANNEL: CHANNEL_NOTICES,
    ChangeKind.QUESTION: "quizbot_questions",
    ChangeKind.REMINDER: "quizbot_reminders",
}
_KIND_OF = {name: kind for kind, name in NOTICES.items()}
_QUESTION_VERSIONS = """
SELECT question_id, SUM(version) FROM (
    SELECT question_id, xmin::text::bigint AS version FROM workspace_questions
    UNION ALL SELECT question_id, xmin::text::bigint FROM question_overrides
) AS texts GROUP BY question_id
"""
_TIMEOUT_SECONDS = 10.0  # to connect, to answer a ping, to close

ListenerConnect = Callable[[], Awaitable["asyncpg.Connection"]]


class PostgresChannels(PgConnection, SqliteChannels):
    """``SqliteChannels`` whose writes announce themselves, and how to hear them."""

    # Opens the listening connection (``PostgresStore.connect`` sets it); None: cannot.
    _listener_connect: ListenerConnect | None = None

    async def _announce_channel(self, conn: aiosqlite.Connection, channel_id: int) -> None:
        await self._announce(conn, ChangeKind.CHANNEL, channel_id)

    async def _announce(self, conn: aiosqlite.Connection, kind: ChangeKind, number: int) -> None:
        """Tell every replica, once ``conn``'s transaction commits, that the row changed."""
        await conn.execute(
            "SELECT pg_notify(?, current_schema() || ':' || ?)", (NOTICES[kind], str(number))
        )

    async def channel_versions(self) -> dict[int, int]:
        rows = await self._fetch("SELECT id, xmin::text::bigint AS version FROM channels")
        return {int(row[0]): int(row[1]) for row in rows}

    async def question_versions(self) -> dict[int, int]:
        rows = await self._fetch(_QUESTION_VERSIONS)
        return {int(row[0]): int(row[1]) for row in rows}

    async def reminder_versions(self) -> dict[int, int]:
        rows = await self._fetch("SELECT member_id, xmin::text::bigint AS version FROM reminders")
        return {int(row[0]): int(row[1]) for row in rows}

    async def listen_changes(
        self, changed: Callable[[ChangeKind, int], None], lost: Callable[[], None]
    ) -> ChannelNotices:
        if self._listener_connect is None:
            raise StoreUnavailableError("this store was opened without a way to listen")
        try:
            return await ChannelNotices.open(self._listener_connect, changed, lost)
        except StoreUnavailableError:
            raise
        except Exception as error:
            # self.path is the URL without its password; the error names no password
            raise StoreUnavailableError(
                f"cannot listen at {self.path}: {type(error).__name__}: {error}"
            ) from error


class ChannelNotices:
    """One connection listening on ``quizbot_channels`` and the other ``NOTICES`` (a
    ``ChannelListener``)."""

    def __init__(
        self,
        conn: asyncpg.Connection,
        schema: str,
        changed: Callable[[ChangeKind, int], None],
        lost: Callable[[], None],
    ) -> None:
        self._conn = conn
        self._schema = schema
        self._changed = changed
        self._lost = lost
        self._closing = False

    @classmethod
    async def open(
        cls,
        connect: ListenerConnect,
        changed: Callable[[ChangeKind, int], None],
        lost: Callable[[], None],
    ) -> Self:
        conn = await asyncio.wait_for(connect(), _TIMEOUT_SECONDS)
        try:
            schema = await conn.fetchval("SELECT current_schema()")
            notices = cls(conn, str(schema), changed, lost)
            conn.add_termination_listener(notices._terminated)
            for name in NOTICES.values():
                await conn.add_listener(name, notices._notified)
        except BaseException:
            conn.terminate()
            raise
        return notices

    def _notified(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        schema, _, number = payload.rpartition(":")
        kind = _KIND_OF.get(channel)
        if kind is not None and schema == self._schema and number.isdigit():
            self._changed(kind, int(number))

    def _terminated(self, conn: Any) -> None:
        if not self._closing:
            self._lost()

    async def alive(self) -> bool:
        if self._conn.is_closed():
            return False
        try:
            await asyncio.wait_for(self._conn.fetchval("SELECT 1"), _TIMEOUT_SECONDS)
        except Exception as error:
            log.debug("the channel-change listener did not answer: %s", type(error).__name__)
            self._conn.terminate()
            return False
        return True

    async def close(self) -> None:
        self._closing = True
        if self._conn.is_closed():
            return
        try:
            await asyncio.wait_for(self._conn.close(), _TIMEOUT_SECONDS)
        except Exception:
            self._conn.terminate()
