"""Another connection holding SQLite's write lock: the store cannot write until it lets go."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# Short enough that a blocked write fails fast in tests instead of waiting seconds.
SHORT_BUSY_TIMEOUT_MS = 20


@contextmanager
def held_write_lock(db_path: Path) -> Iterator[None]:
    """Hold ``BEGIN IMMEDIATE`` on the database (readers go on, writers time out)."""
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        yield
        conn.execute("ROLLBACK")
    finally:
        conn.close()
