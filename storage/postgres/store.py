"""The PostgreSQL implementation of the ``Store`` port (asyncpg), for several replicas.

:class:`PostgresStore` opens and closes the pool and builds each aggregate over it
(``PostgresDatabase``, which translates the shared statements of ``storage.sql``); this
package's own classes are where PostgreSQL differs: rounds created and revealed against
other replicas, outbox leases, answers inserted with RETURNING, NOTIFY announcements
and the listening connection (``changes``).

asyncpg is an optional dependency (``quizbot[postgres]``), imported only here and only
when a ``postgresql://`` URL is opened.
"""

from __future__ import annotations

import functools
import os
import socket
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any, Self

from bot.kernel.bounded_cache import BoundedCache
from bot.kernel.stores import ChangeKind
from storage.errors import StoreUnavailableError
from storage.migrations import MigrationReport
from storage.passwords import hide_password
from storage.postgres.answer_batch import write_answers
from storage.postgres.changes import ChannelNotices, PostgresChanges
from storage.postgres.database import PostgresDatabase
from storage.postgres.migrations import migrate_postgres
from storage.postgres.outbox import PostgresOutbox
from storage.postgres.rounds import PostgresRounds
from storage.sql.answers import Answers
from storage.sql.away import Away
from storage.sql.bank import Bank
from storage.sql.channels import Channels, Meta
from storage.sql.coach import Coach
from storage.sql.dashboard import Dashboard
from storage.sql.deliveries import Deliveries
from storage.sql.fitted_parameters import FittedParameters
from storage.sql.installations import Installations
from storage.sql.learning import Learning
from storage.sql.member_cache import MemberCache
from storage.sql.member_data import MemberData
from storage.sql.members import Members
from storage.sql.notices import Notices
from storage.sql.pairs import Pairs
from storage.sql.practice import Practice
from storage.sql.recaps import Recaps
from storage.sql.reminders import Reminders
from storage.sql.reports import Reports
from storage.sql.reviews import Reviews
from storage.sql.seasons import Seasons
from storage.sql.skipped_days import SkippedDays
from storage.sql.unfinished_cards import UnfinishedCards

DEFAULT_LEASE = timedelta(seconds=60)
_ID_TABLES = """
SELECT table_name FROM information_schema.columns
WHERE column_name = 'id' AND table_schema = current_schema()
"""


def replica_name() -> str:
    """This process's name in outbox claims: host, pid and a random part (pids repeat)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


# Appends a part to a card's JSON list (key, message id, message id).
_APPEND_CARD_PART = (
    "INSERT INTO unfinished_cards (key, message_ids) VALUES (?, jsonb_build_array(?::text)::text)"
    " ON CONFLICT (key) DO UPDATE"
    " SET message_ids = (unfinished_cards.message_ids::jsonb || to_jsonb(?::text))::text"
)
# A change of a blind answer waits for a reveal or close of its round committing
# meanwhile and then sees it (READ COMMITTED alone checks the statement's snapshot).
_ROUND_LOCK = " FOR SHARE"


class PostgresStore:
    """``Store`` on PostgreSQL. Open with ``async with PostgresStore.open(url) as store``.

    Beyond the ``Store`` port it offers ``ChannelChanges`` (row versions and a listening
    connection) and ``LeasedClaims`` (the outbox lease)."""

    def __init__(
        self, pool: Any, url: str, id_tables: frozenset[str], *, replica: str, lease: timedelta
    ) -> None:
        """Use :meth:`open` or :meth:`connect`."""
        self.database = db = PostgresDatabase(pool, url, id_tables)
        self.path = url  # without its password
        self.replica = replica  # who claims outbox actions
        self.migration: MigrationReport | None = None
        round_channels: BoundedCache[int, int] = BoundedCache()
        self.channels = Channels(db)
        self.meta = Meta(db)
        self.rounds = PostgresRounds(db, round_channels)
        self.outbox = PostgresOutbox(db, replica=replica, lease=lease)
        member_cache = MemberCache()
        self.members = Members(db, member_cache)
        self.answers = Answers(
            db, round_channels, write_answers, members=self.members, round_lock=_ROUND_LOCK
        )
        self.deliveries = Deliveries(db)
        self.reports = Reports(db)
        self.unfinished_cards = UnfinishedCards(db, _APPEND_CARD_PART)
        self.learning = Learning(db)
        self.fitted_parameters = FittedParameters(db)
        self.bank = Bank(db)
        self.recaps = Recaps(db)
        self.seasons = Seasons(db)
        self.practice = Practice(db)
        self.reminders = Reminders(db)
        self.skipped_days = SkippedDays(db)
        self.away = Away(db)
        self.pairs = Pairs(db)
        self.notices = Notices(db)
        self.reviews = Reviews(db)
        self.coach = Coach(db)
        self.installations = Installations(db)
        self.member_data = MemberData(db, member_cache)
        self.dashboard = Dashboard(db)
        self.changes = PostgresChanges(db, None)

    @property
    def id_tables(self) -> frozenset[str]:
        """The tables with an identity ``id`` column."""
        return self.database.id_tables

    # LeasedClaims

    @property
    def outbox_lease(self) -> timedelta:
        """How long an outbox claim holds an action off the other replicas."""
        return self.outbox.outbox_lease

    # ChannelChanges

    async def channel_versions(self) -> dict[int, int]:
        return await self.changes.channel_versions()

    async def question_versions(self) -> dict[int, int]:
        return await self.changes.question_versions()

    async def reminder_versions(self) -> dict[int, int]:
        return await self.changes.reminder_versions()

    async def pair_schedule_versions(self) -> dict[int, int]:
        return await self.changes.pair_schedule_versions()

    async def listen_changes(
        self, changed: Callable[[ChangeKind, int], None], lost: Callable[[], None]
    ) -> ChannelNotices:
        return await self.changes.listen_changes(changed, lost)

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        run_migrations: bool = True,
        replica: str | None = None,
        lease: timedelta = DEFAULT_LEASE,
        max_connections: int = 10,
    ) -> Self:
        """Open a pool on ``url`` and apply pending migrations (under an advisory lock)."""
        import asyncpg

        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=max_connections)
        except (OSError, TimeoutError, asyncpg.PostgresError) as error:
            raise StoreUnavailableError(
                f"cannot connect to PostgreSQL at {hide_password(url)}: {error}"
            ) from error
        try:
            migration = None
            async with pool.acquire() as conn:
                if run_migrations:
                    migration = await migrate_postgres(conn)
                tables = frozenset(row[0] for row in await conn.fetch(_ID_TABLES))
            store = cls(
                pool, hide_password(url), tables, replica=replica or replica_name(), lease=lease
            )
            store.migration = migration
            name = f"quizbot listener {store.replica}"
            store.changes.listener_connect = functools.partial(
                asyncpg.connect, url, server_settings={"application_name": name[:63]}
            )
        except BaseException:
            await pool.close()
            raise
        store.answers.committer.start()
        return store

    @classmethod
    @asynccontextmanager
    async def open(cls, url: str, **options: Any) -> AsyncIterator[Self]:
        store = await cls.connect(url, **options)
        try:
            yield store
        finally:
            await store.close()

    async def close(self) -> None:
        """Commit what is queued, then close the pool."""
        db = self.database
        if db.pool is None:
            return
        try:
            await self.answers.committer.close()
        finally:
            pool, db.pool = db.pool, None
            await pool.close()

    @property
    def closed(self) -> bool:
        return self.database.pool is None
