"""`quizbot db migrate` on PostgreSQL, and `quizbot db copy` from SQLite to PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from adapters.cli.main import main
from bot.kernel.models import ActionKind, AnswerDraft, ChannelSettings
from bot.kernel.refs import ChannelRef, MemberRef
from questions.catalog import QuestionKey
from questions.loader import load_pack
from storage.postgres.migrations import bundled_postgres_migrations
from storage.postgres.store import PostgresStore
from storage.sqlite.store import SqliteStore
from tests.cli.workspace_data import approved_question_and_flag
from tests.storage.backends import postgres_schema

LATEST = bundled_postgres_migrations()[-1].version
AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture
async def url() -> AsyncIterator[str]:
    async with postgres_schema() as schema_url:
        yield schema_url


async def quizbot(*args: str) -> int:
    return await asyncio.to_thread(main, list(args))


async def test_migrate_on_postgresql(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert await quizbot("db", "migrate", "--url", url) == 0
    assert f"migrated from schema version 0 to {LATEST}" in capsys.readouterr().out
    assert await quizbot("db", "migrate", "--url", url) == 0
    assert f"up to date (version {LATEST})" in capsys.readouterr().out


async def a_used_installation(path: Path) -> None:
    async with SqliteStore.open(path) as store:
        ids = await store.rounds.sync_questions([QuestionKey("p", "q1", "gpu", "h")])
        channel = await store.channels.create_channel(
            ChannelSettings(0, ChannelRef("slack", "T1", "C1", "quiz"), "UTC")
        )
        round_ = await store.rounds.create_round(
            channel.id,
            lambda _: ids[("p", "q1")],
            AT,
            scheduled=True,
            created_at=AT,
            actions=[ActionKind.QUESTION],
        )
        assert round_ is not None
        ann = await store.members.member_id(MemberRef("slack", "T1", "U1", "Ann"))
        await store.answers.record_answer(
            AnswerDraft("ev1", "slack", channel.id, round_.id, ann, "m1", "an answer", AT, 10, 5)
        )
        await store.meta.set_meta("synced", "yes")


async def test_copy_moves_every_row_and_refuses_a_target_with_data(
    tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "quizbot.db"
    await a_used_installation(source)
    assert await quizbot("db", "copy", "--from", f"sqlite:///{source}", "--to", url) == 0
    out = capsys.readouterr().out
    assert "counts match" in out and "answers 1" in out and "rounds 1" in out
    async with PostgresStore.open(url) as store:
        channel = (await store.channels.list_channels())[0]
        round_ = await store.rounds.latest_round(channel.id)
        assert round_ is not None
        [answer] = await store.answers.round_answers(round_.id)
        assert (answer.member_name, answer.text, answer.points) == ("Ann", "an answer", 15)
        assert await store.meta.get_meta("synced") == "yes"
        assert not await store.deliveries.mark_event_processed(
            "slack", "ev1", AT
        )  # events came too
        later = await store.channels.create_channel(
            ChannelSettings(0, ChannelRef("slack", "T1", "C2", "more"), "UTC")
        )
        assert later.id == channel.id + 1  # ids go on after the copied ones
    assert await quizbot("db", "copy", "--from", f"sqlite:///{source}", "--to", url) == 1
    assert "is not empty: channels (2)" in capsys.readouterr().err


async def test_a_database_url_of_another_kind_is_refused_clearly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert await quizbot("db", "migrate", "--url", "mysql://db/quiz") == 1
    assert "unsupported database URL scheme 'mysql'" in capsys.readouterr().err


async def test_flags_and_export_read_the_postgresql_database_of_the_url(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("QUIZBOT_DB_PATH", raising=False)
    monkeypatch.setenv("QUIZBOT_DATABASE_URL", url)
    async with PostgresStore.open(url) as store:
        await approved_question_and_flag(store, reason="40 GB,\nnot 80")
    assert await quizbot("packs", "flags") == 0
    assert capsys.readouterr().out == (
        "f1  2026-11-30  slack:T1  ai-infra/q1  round #1  Alice: 40 GB,\\nnot 80\n"
    )
    out = tmp_path / "team.yaml"
    assert await quizbot("packs", "export", "--workspace", "T1", "--out", str(out)) == 0
    assert "pack 'slack-t1', 1 question(s)" in capsys.readouterr().out
    assert [q.id for q in load_pack(out).questions] == ["kv-size-s1"]
    assert not (tmp_path / "quizbot.db").exists()


async def test_reading_commands_never_migrate_an_older_postgresql_database(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("QUIZBOT_DATABASE_URL", url)
    assert await quizbot("packs", "flags") == 1
    assert "run `quizbot db migrate` first" in capsys.readouterr().err
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT to_regclass('schema_version')") is None
    finally:
        await conn.close()


async def test_copy_takes_a_plain_file_path(
    tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "quizbot.db"
    await a_used_installation(source)
    assert await quizbot("db", "copy", "--from", str(source), "--to", url) == 0
    assert "counts match" in capsys.readouterr().out
    back = tmp_path / "back.db"
    assert await quizbot("db", "copy", "--from", url, "--to", str(back)) == 0
    assert f"to {back}; counts match" in capsys.readouterr().out
