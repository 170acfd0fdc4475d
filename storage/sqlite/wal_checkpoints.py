"""WAL checkpoints off the commit path: a second connection checkpoints in the background.

With SQLite's default ``wal_autocheckpoint`` the commit that pushes the WAL past
1,000 pages runs the checkpoint itself, syncing the database file before it
returns. That commit is a member's reveal or answer, which then waits several
milliseconds for the disk. The store's writer turns automatic checkpoints off and
this task runs a PASSIVE checkpoint from its own connection instead, in a worker
thread, whenever something was committed since the last one. PASSIVE never waits
for the writer or for readers, so the writer never waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from pathlib import Path

log = logging.getLogger(__name__)

CHECKPOINT_INTERVAL_SECONDS = 1.0


class WalCheckpointer:
    """Checkpoints one WAL-mode database file from a connection of its own."""

    def __init__(self, path: Path | str, interval: float = CHECKPOINT_INTERVAL_SECONDS) -> None:
        self._path = str(path)
        self._interval = interval
        self._conn: sqlite3.Connection | None = None
        self._seen_version: int | None = None
        self._task: asyncio.Task[None] | None = None
        self._running: asyncio.Future[bool] | None = None

    def start(self) -> None:
        """Checkpoint every ``interval`` seconds until :meth:`close`."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="wal-checkpoints")

    async def checkpoint(self) -> bool:
        """Checkpoint now if anything was committed since the last call; True if it ran."""
        self._running = asyncio.ensure_future(asyncio.to_thread(self._checkpoint))
        # Shielded: cancelling the caller must not let close() shut the connection under the thread.
        return await asyncio.shield(self._running)

    async def close(self) -> None:
        """Stop the background task and close the connection."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._running is not None and not self._running.done():
            with contextlib.suppress(sqlite3.Error):
                await self._running
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await asyncio.to_thread(conn.close)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._interval)
            try:
                await self.checkpoint()
            except sqlite3.Error as error:
                # The writer's next commits still land in the WAL; the next pass retries.
                log.warning("WAL checkpoint failed: %s", error)

    def _checkpoint(self) -> bool:
        if self._conn is None:
            self._conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        # data_version changes when another connection commits: an idle database costs one read.
        version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        if version == self._seen_version:
            return False
        self._seen_version = version
        self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return True
