"""The SQLite implementation of the ``Store`` port (aiosqlite).

:class:`SqliteStore` opens and closes the connection and builds each aggregate over it
(``SqliteDatabase``): the shared ones of ``storage.sql``, and this package's own where
SQLite's statements differ (rounds and outbox in one hop on aiosqlite's thread, the
answer batch, the JSON append of a card part).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Self

import aiosqlite

from bot.kernel.bounded_cache import BoundedCache
from storage.errors import StorageError
from storage.migrations import MigrationReport
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
from storage.sqlite.answer_batch import write_answers
from storage.sqlite.database import SqliteDatabase
from storage.sqlite.migrations import migrate
from storage.sqlite.outbox import SqliteOutbox
from storage.sqlite.rounds import SqliteRounds
from storage.sqlite.wal_checkpoints import WalCheckpointer

log = logging.getLogger(__name__)

DEFAULT_BUSY_TIMEOUT_MS = 5000
# In WAL mode NORMAL syncs at checkpoints only: a power loss (not a crash of the
# process) can undo the last commits. FULL syncs the WAL at every commit.
SYNCHRONOUS_MODES = {"normal": "NORMAL", "full": "FULL"}


# Appends a part to a card's JSON list (key, message id, message id).
_APPEND_CARD_PART = (
    "INSERT INTO unfinished_cards (key, message_ids) VALUES (?, json_array(?))"
    " ON CONFLICT (key) DO UPDATE"
    " SET message_ids = json_insert(unfinished_cards.message_ids, '$[#]', ?)"
)


class SqliteStore:
    """``Store`` on SQLite. Open with ``async with SqliteStore.open(path) as store``."""

    def __init__(self, conn: aiosqlite.Connection, path: Path | str) -> None:
        """Use :meth:`open` or :meth:`connect`; this wraps an already configured connection."""
        self.database = db = SqliteDatabase(conn, path)
        self.path = path
        self.migration: MigrationReport | None = None
        self.checkpoints: WalCheckpointer | None = None
        round_channels: BoundedCache[int, int] = BoundedCache()
        self.channels = Channels(db)
        self.meta = Meta(db)
        self.rounds = SqliteRounds(db, round_channels)
        self.outbox = SqliteOutbox(db)
        member_cache = MemberCache()
        self.members = Members(db, member_cache)
        self.answers = Answers(db, round_channels, write_answers, members=self.members)
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

    # life cycle

    @classmethod
    async def connect(
        cls,
        path: Path | str,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        run_migrations: bool = True,
        synchronous: str = "normal",
    ) -> Self:
        """Open the database, configure the connection and apply pending migrations.

        ``synchronous``: "normal" or "full" (SQLite's PRAGMA synchronous; see SYNCHRONOUS_MODES).
        """
        mode = SYNCHRONOUS_MODES.get(synchronous)
        if mode is None:
            raise ValueError(f"synchronous must be normal or full, not {synchronous!r}")
        if not Path(path).parent.is_dir():  # before aiosqlite, whose thread outlives the failure
            raise StorageError(f"the directory {Path(path).parent} does not exist")
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            journal = await (await conn.execute("PRAGMA journal_mode = WAL")).fetchone()
            in_wal = journal is not None and str(journal[0]).lower() == "wal"
            await conn.execute(f"PRAGMA synchronous = {mode}")
            await conn.execute("PRAGMA foreign_keys = ON")
            if in_wal:  # checkpoints run beside the writer, not inside one of its commits
                await conn.execute("PRAGMA wal_autocheckpoint = 0")
            store = cls(conn, path)
            if run_migrations:
                store.migration = await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        store.answers.committer.start()
        if in_wal:
            store.checkpoints = WalCheckpointer(path)
            store.checkpoints.start()
        return store

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        path: Path | str,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        run_migrations: bool = True,
        synchronous: str = "normal",
    ) -> AsyncIterator[Self]:
        store = await cls.connect(
            path,
            busy_timeout_ms=busy_timeout_ms,
            run_migrations=run_migrations,
            synchronous=synchronous,
        )
        try:
            yield store
        finally:
            await store.close()

    async def close(self) -> None:
        """Commit what is queued, then close the connection (and stop its thread)."""
        db = self.database
        if db.conn is None:
            return
        try:
            await self.answers.committer.close()
        finally:
            if self.checkpoints is not None:
                await self.checkpoints.close()
            async with db.lock:
                conn, db.conn = db.conn, None
                if conn is not None:
                    try:
                        await conn.execute("PRAGMA optimize")  # SQLite's advice before closing
                    except sqlite3.Error as error:
                        log.warning("PRAGMA optimize failed on close: %s", error)
                    finally:
                        await conn.close()

    @property
    def closed(self) -> bool:
        return self.database.conn is None
