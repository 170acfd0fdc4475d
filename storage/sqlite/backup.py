"""Online backup of a live database with SQLite's backup API.

Safe while the bot runs: in WAL mode the copy reads one consistent snapshot
and the bot's writer keeps writing meanwhile. The copy is written next to the
target, checked, switched to a single-file journal and then renamed into
place, so a half-written backup never carries the target's name.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from storage.errors import StorageError


@dataclass(frozen=True, slots=True)
class BackupReport:
    """Where a backup was written and how big it is."""

    target: Path
    size_bytes: int
    schema_version: int


async def backup_database(
    source: Path, target: Path, *, busy_timeout_ms: int = 5000
) -> BackupReport:
    """Copy ``source`` into the new file ``target`` (which must not exist yet)."""
    return await asyncio.to_thread(_backup, source, target, busy_timeout_ms)


def _backup(source: Path, target: Path, busy_timeout_ms: int) -> BackupReport:
    if not source.is_file():
        raise StorageError(f"no database at {source}")
    if target.exists():
        raise StorageError(f"{target} already exists; choose a new file name for the backup")
    if not target.parent.is_dir():
        raise StorageError(f"the directory {target.parent} does not exist")
    partial = target.with_name(target.name + ".partial")
    try:
        version = _copy(source, partial, busy_timeout_ms)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return BackupReport(target, target.stat().st_size, version)


def _copy(source: Path, partial: Path, busy_timeout_ms: int) -> int:
    partial.unlink(missing_ok=True)
    # mode=rw: never create an empty database where the source should be
    with closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True)) as src:
        src.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        with closing(sqlite3.connect(partial)) as dst:
            src.backup(dst)
            verdict = dst.execute("PRAGMA integrity_check").fetchone()[0]
            if verdict != "ok":
                raise StorageError(f"the backup failed its integrity check: {verdict}")
            dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            return int(dst.execute("PRAGMA user_version").fetchone()[0])
