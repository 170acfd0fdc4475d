"""How every replica hears of each change of a channel, a bank question, a member's
reminder or a channel's pairing slot (``ChannelChanges``).

The transaction that creates or changes a channel also sends ``NOTIFY quizbot_channels``
with ``<schema>:<channel id>``: PostgreSQL delivers it, once committed, to every
connection listening on that name, so each replica reads the channel again. The schema
in the payload keeps installations in other schemas of the database from waking this one.
A question's texts (a workspace's own question, an override) announce themselves on
``quizbot_questions`` with the question's id, a reminder on ``quizbot_reminders`` with
its member's id, a pairing slot on ``quizbot_pair_schedules`` with its channel's id
(``PostgresDatabase.announce``, in the writing transaction).

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
from storage.postgres.database import NOTICES, PostgresDatabase

if TYPE_CHECKING:
    import asyncpg

log = logging.getLogger(__name__)

CHANNEL_NOTICES = NOTICES[ChangeKind.CHANNEL]
_KIND_OF = {name: kind for kind, name in NOTICES.items()}
_QUESTION_VERSIONS = """
SELECT question_id, SUM(version) FROM (
    SELECT question_id, xmin::text::bigint AS version FROM workspace_questions
    UNION ALL SELECT question_id, xmin::text::bigint FROM question_overrides
) AS texts GROUP BY question_id
"""
_TIMEOUT_SECONDS = 10.0  # to connect, to answer a ping, to close

ListenerConnect = Callable[[], Awaitable["asyncpg.Connection"]]


class PostgresChanges:
    """Each row's version, and how to hear the announcements (``ChannelChanges``)."""

    def __init__(self, db: PostgresDatabase, listener_connect: ListenerConnect | None) -> None:
        self._db = db
        # Opens the listening connection; None: this store cannot listen.
        self.listener_connect = listener_connect

    async def channel_versions(self) -> dict[int, int]:
        rows = await self._db.fetch("SELECT id, xmin::text::bigint AS version FROM channels")
        return {int(row[0]): int(row[1]) for row in rows}

    async def question_versions(self) -> dict[int, int]:
        rows = await self._db.fetch(_QUESTION_VERSIONS)
        return {int(row[0]): int(row[1]) for row in rows}

    async def reminder_versions(self) -> dict[int, int]:
        rows = await self._db.fetch(
            "SELECT member_id, xmin::text::bigint AS version FROM reminders"
        )
        return {int(row[0]): int(row[1]) for row in rows}

    async def pair_schedule_versions(self) -> dict[int, int]:
        rows = await self._db.fetch(
            "SELECT channel_id, xmin::text::bigint AS version FROM pair_schedules"
        )
        return {int(row[0]): int(row[1]) for row in rows}

    async def listen_changes(
        self, changed: Callable[[ChangeKind, int], None], lost: Callable[[], None]
    ) -> ChannelNotices:
        if self.listener_connect is None:
            raise StoreUnavailableError("this store was opened without a way to listen")
        try:
            return await ChannelNotices.open(self.listener_connect, changed, lost)
        except StoreUnavailableError:
            raise
        except Exception as error:
            # the URL is without its password; the error names no password
            raise StoreUnavailableError(
                f"cannot listen at {self._db.url}: {type(error).__name__}: {error}"
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
