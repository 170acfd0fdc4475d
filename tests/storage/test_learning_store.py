"""The learning migration on an existing database, and the learning store on both backends.

The two migration tests are SQLite's alone: they upgrade a database file an earlier
release left (PostgreSQL's migrations are tested in ``test_migrations``)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import aiosqlite
import pytest

from bot.kernel.grades import Grade
from bot.kernel.refs import ChannelRef, MemberRef
from bot.learning import memory_model
from bot.learning.store import GradeDraft
from bot.store import Store
from questions.catalog import QuestionKey
from storage.migrations import bundled_migrations
from storage.sqlite.migrations import migrate
from storage.sqlite.store import SqliteStore
from storage.timestamps import to_db
from tests.storage.backends import BACKENDS, open_store

AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
LEARNING = next(m for m in bundled_migrations() if m.name == "learning")


async def quiz_at_the_version_before_learning(path: Path) -> None:
    """A database as the release before the learning loop left it, with a round in it."""
    before = [m for m in bundled_migrations() if m.version < LEARNING.version]
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await migrate(conn, before)
        # the channel as that release wrote it (later migrations add columns to channels)
        cursor = await conn.execute(
            "INSERT INTO channels (platform, workspace, channel, timezone, reveal_emoji,"
            " reveal_min_reactors, followup_policy, grace_hours)"
            " VALUES ('fake', 'team', 'C1', 'UTC', '💡', 1, 'after_first_answer', 6)"
        )
        channel_id = cursor.lastrowid
        assert channel_id is not None
    async with SqliteStore.open(path, run_migrations=False) as store:
        ids = await store.rounds.sync_questions([QuestionKey("p", "q1", "gpu", "h1")])
        await store.members.member_id(MemberRef("fake", "team", "U1", "Alice"))
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        # the round as that release wrote it (later migrations add columns to rounds)
        await conn.execute(
            "INSERT INTO rounds (channel_id, question_id, number, scheduled_for, scheduled,"
            " state, created_at) VALUES (?, ?, 1, ?, 1, 'open', ?)",
            (channel_id, ids[("p", "q1")], to_db(AT), to_db(AT)),
        )


async def test_the_learning_migration_keeps_rounds_and_adds_its_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    await quiz_at_the_version_before_learning(path)
    async with SqliteStore.open(path) as store:
        assert store.migration is not None
        assert store.migration.from_version == LEARNING.version - 1
        channel = await store.channels.get_channel(ChannelRef("fake", "team", "C1"))
        assert channel is not None
        round_ = await store.rounds.latest_round(channel.id)
        assert round_ is not None and round_.number == 1
        member_id = await store.members.member_id(MemberRef("fake", "team", "U1", "Alice"))
        result = await store.learning.record_grade(
            GradeDraft(member_id, round_.question_id, Grade.GOOD, AT, round_.id, channel.id),
            member_card=memory_model.member_card,
            channel_card=memory_model.channel_card,
        )
        assert result.card.reviews == 1
        assert set(await store.learning.channel_cards(channel.id)) == {round_.question_id}
    conn = sqlite3.connect(path)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()
    assert {"grades", "member_cards", "channel_cards", "member_goals"} <= tables


async def test_the_database_allows_one_current_grade_per_member_and_round(
    tmp_path: Path,
) -> None:
    path = tmp_path / "q.db"
    await quiz_at_the_version_before_learning(path)
    async with SqliteStore.open(path) as store:
        channel = await store.channels.get_channel(ChannelRef("fake", "team", "C1"))
        assert channel is not None
        round_ = await store.rounds.latest_round(channel.id)
        assert round_ is not None
        member_id = await store.members.member_id(MemberRef("fake", "team", "U1", "Alice"))
        insert = (
            "INSERT INTO grades (member_id, question_id, round_id, channel_id, rating,"
            " graded_at) VALUES (?, ?, ?, ?, 3, 'x')"
        )
        params = (member_id, round_.question_id, round_.id, channel.id)
        conn = sqlite3.connect(path)
        try:
            conn.execute(insert, params)
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute(insert, params)
        finally:
            conn.rollback()
            conn.close()


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def test_goals_are_kept_per_member(store: Store) -> None:
    alice = await store.members.member_id(MemberRef("fake", "team", "U1", "Alice"))
    bob = await store.members.member_id(MemberRef("fake", "team", "U2", "Bob"))
    await store.learning.set_goal(alice, date(2027, 1, 15))
    await store.learning.set_goal(alice, date(2027, 2, 1))
    assert await store.learning.goal(alice) == date(2027, 2, 1)
    assert await store.learning.goal(bob) is None
    await store.learning.set_goal(alice, None)
    assert await store.learning.goal(alice) is None


async def test_practice_grades_update_the_member_card_only(store: Store) -> None:
    ids = await store.rounds.sync_questions([QuestionKey("p", "q1", "gpu", "h1")])
    question = ids[("p", "q1")]
    alice = await store.members.member_id(MemberRef("fake", "team", "U1", "Alice"))
    for days, grade in ((0, Grade.MISSED), (2, Grade.GOOD)):
        await store.learning.record_grade(
            GradeDraft(alice, question, grade, AT + timedelta(days=days)),
            member_card=memory_model.member_card,
            channel_card=memory_model.channel_card,
        )
    card = (await store.learning.member_cards(alice))[question]
    expected = memory_model.replay(
        question, [(Grade.MISSED, AT), (Grade.GOOD, AT + timedelta(days=2))]
    )
    assert card == expected
