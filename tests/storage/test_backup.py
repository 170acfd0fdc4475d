"""Online backup while the bot keeps writing.

SQLite only: it copies the database file (``quizbot db backup``); a PostgreSQL server is
backed up with its own tools (``pg_dump``), which the bot does not run."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.kernel.models import ActionKind, AnswerDraft, ChannelSettings
from bot.kernel.refs import ChannelRef, MemberRef
from questions.catalog import QuestionKey
from storage.errors import StorageError
from storage.sqlite.backup import backup_database
from storage.sqlite.store import SqliteStore

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


async def _keep_answering(
    store: SqliteStore, stop: asyncio.Event, batch_done: asyncio.Event
) -> int:
    channel = await store.channels.create_channel(
        ChannelSettings(id=0, ref=ChannelRef("console", "local", "quiz"), timezone="UTC")
    )
    ids = await store.rounds.sync_questions([QuestionKey("p", "q", "gpu", "h")])
    round_ = await store.rounds.create_round(
        channel.id,
        lambda _: ids[("p", "q")],
        T0,
        scheduled=True,
        created_at=T0,
        actions=[ActionKind.QUESTION],
    )
    assert round_ is not None
    member = await store.members.member_id(MemberRef("console", "local", "u1", "Ann"))
    written = 0
    while not stop.is_set() or written < 200:
        batch = [
            AnswerDraft(
                f"e{written + i}",
                "console",
                round_.id,
                channel.id,
                member,
                f"m{written + i}",
                "x" * 200,
                T0,
                10,
                5,
            )
            for i in range(50)
        ]
        await asyncio.gather(*(store.answers.record_answer(d) for d in batch))
        written += len(batch)
        batch_done.set()
    return written


async def _batches(batch_done: asyncio.Event, count: int) -> None:
    for _ in range(count):
        batch_done.clear()
        await batch_done.wait()


def _answers_in(path: Path) -> tuple[str, int, int]:
    conn = sqlite3.connect(path)
    try:
        verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
        count = conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()
    return verdict, count, version


async def test_backup_while_another_task_keeps_writing(tmp_path: Path) -> None:
    source, target = tmp_path / "quiz.db", tmp_path / "backup.db"
    async with SqliteStore.open(source) as store:
        stop, batch_done = asyncio.Event(), asyncio.Event()
        writer = asyncio.create_task(_keep_answering(store, stop, batch_done))
        await _batches(batch_done, 3)  # let it get going
        report = await backup_database(source, target)
        await _batches(batch_done, 2)  # and it is still going
        stop.set()
        written = await writer
    verdict, copied, version = _answers_in(target)
    assert verdict == "ok"
    assert 0 < copied < written
    assert version == report.schema_version >= 1
    assert report.size_bytes == target.stat().st_size
    assert not (tmp_path / "backup.db-wal").exists()  # one self-contained file
    assert not (tmp_path / "backup.db.partial").exists()


async def test_backup_refuses_to_overwrite_or_to_invent_a_source(tmp_path: Path) -> None:
    source, target = tmp_path / "quiz.db", tmp_path / "backup.db"
    with pytest.raises(StorageError, match="no database at"):
        await backup_database(source, target)
    assert not source.exists()
    async with SqliteStore.open(source):
        pass
    target.write_text("precious")
    with pytest.raises(StorageError, match="already exists"):
        await backup_database(source, target)
    assert target.read_text() == "precious"
