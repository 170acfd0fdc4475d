"""The member-data aggregate on both backends: every table of the migrated schema that
names a member is either erased or kept with a reason, an erasure leaves no row of the
member in any of them (one transaction), an export reads every row of theirs and none of
anyone else's, and a channel's export holds its rounds, answers, votes and grades."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import pytest

import storage.sql.member_cache as member_cache
from bot.features import ERASED_TABLES, KEPT_TABLES
from bot.kernel.grades import Grade
from bot.kernel.models import direct_draft
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.render import Card
from bot.learning import memory_model
from bot.learning.store import GradeDraft
from bot.practice.store import PracticeDraft
from bot.reminders.store import Reminder
from storage.postgres.store import PostgresStore
from storage.sqlite.store import SqliteStore
from tests.storage.backends import BACKENDS, open_store
from tests.storage.test_store import T0, draft, member, new_channel, new_round

MEMBER_COLUMN_WORDS = ("member", "voter")  # a column naming a member, by its name
ADMIN_COLUMNS = {"decided_by", "updated_by"}  # columns naming an admin who acted


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened  # type: ignore[misc]  # both backends, typed as SQLite's for brevity


async def member_columns(store: SqliteStore | PostgresStore) -> set[tuple[str, str]]:
    """(table, column) of every column of the migrated schema that names a member: by a
    foreign key to members, or by its name."""
    db = store.database
    found: set[tuple[str, str]] = set()
    if isinstance(store, SqliteStore):
        tables = [
            r[0] for r in await db.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        for table in tables:
            for column in await db.fetch(f"PRAGMA table_info({table})"):
                found.add((table, str(column["name"])))
            for key in await db.fetch(f"PRAGMA foreign_key_list({table})"):
                if key["table"] == "members":
                    found.add((table, f"fk:{key['from']}"))
    else:
        rows = await db.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema()"
        )
        found |= {(str(r[0]), str(r[1])) for r in rows}
        keys = await db.fetch(
            "SELECT kcu.table_name, kcu.column_name"
            " FROM information_schema.referential_constraints rc"
            " JOIN information_schema.key_column_usage kcu"
            "   ON kcu.constraint_name = rc.constraint_name"
            "   AND kcu.constraint_schema = rc.constraint_schema"
            " JOIN information_schema.constraint_column_usage ccu"
            "   ON ccu.constraint_name = rc.unique_constraint_name"
            "   AND ccu.constraint_schema = rc.unique_constraint_schema"
            " WHERE rc.constraint_schema = current_schema() AND ccu.table_name = 'members'"
        )
        found |= {(str(r[0]), f"fk:{r[1]}") for r in keys}
    named = {
        (table, column.removeprefix("fk:"))
        for table, column in found
        if column.startswith("fk:")
        or any(word in column for word in MEMBER_COLUMN_WORDS)
        or column in ADMIN_COLUMNS
    }
    return named | {("members", "id")}


async def test_every_table_naming_a_member_is_erased_or_kept_with_a_reason(
    store: SqliteStore,
) -> None:
    columns = await member_columns(store)
    assert {t for t, _ in columns} >= {"answers", "grades", "reminders", "practice_sessions"}
    unaccounted = sorted(
        f"{table}.{column}"
        for table, column in columns
        if table not in ERASED_TABLES
        and table not in KEPT_TABLES
        and f"{table}.{column}" not in KEPT_TABLES
    )
    assert unaccounted == [], "erase these in MemberData.erase_member, or keep them with a reason"
    assert all(reason.strip() for reason in KEPT_TABLES.values())


async def populate(store: SqliteStore, name: str, other: int) -> tuple[int, ChannelRef]:
    """A member with a row in every table of theirs; ``other`` votes on their answer and
    they vote on ``other``'s."""
    me = await member(store, name)
    channel_id = await new_channel(store)
    round_ = await new_round(store, channel_id, T0.replace(day=2 + me))
    mine = await store.answers.record_answer(draft(round_, me, f"{name}-m1"))
    theirs = await store.answers.record_answer(draft(round_, other, f"{name}-o1"))
    assert mine.answer_id is not None and theirs.answer_id is not None
    await store.answers.record_vote(mine.answer_id, other, T0, per_vote=1, max_votes=3)
    await store.answers.record_vote(theirs.answer_id, me, T0, per_vote=1, max_votes=3)
    await store.rounds.add_reveal_reactor(round_.id, me, at=T0)
    await store.learning.record_grade(
        GradeDraft(me, round_.question_id, Grade.MISSED, T0, round_.id, channel_id),
        member_card=memory_model.member_card,
        channel_card=memory_model.channel_card,
    )
    await store.learning.set_goal(me, date(2027, 1, 15))
    direct = ChannelRef("slack", "T1", f"D-{name}", "DM")
    await store.reminders.set_reminder(Reminder(me, direct, "08:30", "UTC"), T0)
    await store.notices.subscribe(channel_id, me, direct, T0)
    await store.practice.start_session(PracticeDraft(me, direct, round_.question_id, None, T0))
    await store.outbox.enqueue([direct_draft(direct, Card("reminder"), f"remind:{me}:x")], T0)
    await store.unfinished_cards.begin_card(f"remind:{me}:x")
    db = store.database
    for answer, reviewer in ((mine.answer_id, other), (theirs.answer_id, me)):
        await db.change(
            "INSERT INTO answer_reviews (answer_id, round_id, channel_id, reviewer_id, score,"
            " comment, points, reviewed_at) VALUES (?, ?, ?, ?, 3, 'ok', 2, '2026-03-02')",
            (answer, round_.id, channel_id, reviewer),
        )
    await db.change(
        "INSERT INTO best_answers (round_id, answer_id, marked_at) VALUES (?, ?, '2026-03-02')",
        (round_.id, mine.answer_id),
    )
    await store.away.set("T1", f"U-{name}", date(2026, 3, 9), date(2026, 3, 13), T0)
    await db.change(
        "INSERT INTO bonuses (channel_id, member_id, points, reason, awarded_at)"
        " VALUES (?, ?, 5, 'r', '2026-03-02T09:00:00Z')",
        (channel_id, me),
    )
    await db.change(
        "INSERT INTO flags (platform, workspace, channel_id, round_id, question_id, member_id,"
        " reason, created_at) VALUES ('slack', 'T1', ?, ?, ?, ?, 'typo', '2026-03-02')",
        (channel_id, round_.id, round_.question_id, me),
    )
    await db.change(
        "INSERT INTO suggestions (platform, workspace, channel_id, member_id, body, state,"
        " created_at) VALUES ('slack', 'T1', ?, ?, 'my question', 'pending', '2026-03-02')",
        (channel_id, me),
    )
    return me, direct


async def rows_naming(store: SqliteStore, member_id: int) -> dict[str, int]:
    """Rows per (table.column) naming the member, but for the columns kept on purpose: by
    their id, or in a column named ``member``, by their platform id."""
    found = await store.database.fetch("SELECT member FROM members WHERE id = ?", (member_id,))
    platform_id = str(found[0][0])
    counts = {}
    for table, column in await member_columns(store):
        if table == "members" or f"{table}.{column}" in KEPT_TABLES:
            continue
        if column == "members":  # a JSON list of member ids (a mock-interview group)
            listed = await store.database.fetch(f"SELECT {column} FROM {table}", ())
            count = sum(member_id in json.loads(str(row[0])) for row in listed)
        else:
            value: int | str = platform_id if column == "member" else member_id
            rows = await store.database.fetch(
                f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (value,)
            )
            count = int(rows[0][0])
        if count:
            counts[f"{table}.{column}"] = count
    return counts


async def direct_rows(store: SqliteStore, direct: ChannelRef) -> int:
    rows = await store.database.fetch(
        "SELECT COUNT(*) FROM outbox WHERE target_channel = ?", (direct.channel_id,)
    )
    cards = await store.database.fetch(
        "SELECT COUNT(*) FROM unfinished_cards WHERE key LIKE 'remind:%'", ()
    )
    return int(rows[0][0]) + int(cards[0][0])


async def test_an_erasure_leaves_no_row_of_the_member_and_spares_the_others(
    store: SqliteStore,
) -> None:
    bob = await member(store, "bob")
    alice, direct = await populate(store, "alice", bob)
    before = await rows_naming(store, alice)
    assert {
        "answers.member_id",
        "grades.member_id",
        "reminders.member_id",
        "notice_members.member_id",
        "answer_reviews.reviewer_id",
        "away_periods.member",
    } <= set(before)
    bob_votes = await rows_naming(store, bob)

    erased = await store.member_data.erase_member(alice, T0)

    assert await rows_naming(store, alice) == {}
    assert erased.rows["answers"] == 1 and erased.rows["outbox"] == 1
    assert await direct_rows(store, direct) == 0
    name = await store.database.fetch("SELECT display_name FROM members WHERE id = ?", (alice,))
    assert name[0][0] == ""
    after = await rows_naming(store, bob)
    # bob keeps his answer, and alice's vote on it stays in his points, naming no one
    assert after["answers.member_id"] == bob_votes["answers.member_id"]
    assert await store.reminders.reminder(alice) is None


async def test_an_export_reads_the_members_rows_and_nobody_elses(store: SqliteStore) -> None:
    bob = await member(store, "bob")
    alice, _ = await populate(store, "alice", bob)

    tables = await store.member_data.member_tables(alice)

    assert [a["member_id"] for a in tables["answers"]] == [alice]
    assert len(tables["votes_given"]) == 1 and len(tables["votes_received"]) == 1
    assert "voter_id" not in tables["votes_received"][0]  # nobody else is named
    assert tables["member_goals"][0]["target_date"] == "2027-01-15"
    assert len(tables["practice_sessions"]) == 1 and len(tables["suggestions"]) == 1
    assert len(tables["reviews_given"]) == 1 and len(tables["reviews_received"]) == 1
    assert "reviewer_id" not in tables["reviews_received"][0]
    assert len(tables["best_answers"]) == 1
    assert tables["away_periods"][0]["last_day"] == "2026-03-13"
    assert tables["members"][0]["display_name"] == "alice"


async def test_a_channels_export_and_the_workspace_goals(store: SqliteStore) -> None:
    bob = await member(store, "bob")
    alice, _ = await populate(store, "alice", bob)
    channel_id = (await store.channels.get_channel(ChannelRef("slack", "T1", "C1"))).id  # type: ignore[union-attr]

    tables = await store.member_data.channel_tables(channel_id)

    assert {t: len(rows) for t, rows in tables.items()} == {
        "rounds": 1,
        "answers": 2,
        "votes": 2,
        "grades": 1,
        "reviews": 2,
    }
    goals = await store.member_data.workspace_goals("slack", "T1")
    assert [(g.member_id, g.goal) for g in goals] == [(alice, date(2027, 1, 15))]
    assert await store.member_data.workspace_goals("slack", "T2") == []
    assert await store.member_data.member_channels(alice) == [channel_id]


async def test_a_member_who_comes_back_after_an_erasure_is_named_again(
    store: SqliteStore,
) -> None:
    ref = MemberRef("slack", "T1", "U-back", "Bea")
    member_id = await store.members.member_id(ref)
    await store.member_data.erase_member(member_id, T0)
    assert await display_name(store, member_id) == ""

    assert await store.members.member_id(ref) == member_id  # the same member, seen again
    assert await display_name(store, member_id) == "Bea"


async def display_name(store: SqliteStore, member_id: int) -> str:
    row = await store.database.fetch_one(
        "SELECT display_name FROM members WHERE id = ?", (member_id,)
    )
    assert row is not None
    return str(row[0])


async def test_a_name_another_replica_erased_is_written_again_within_minutes(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref = MemberRef("slack", "T1", "U-elsewhere", "Eli")
    member_id = await store.members.member_id(ref)
    # another replica's erasure: this process's cache knows nothing of it
    await store.database.change("UPDATE members SET display_name = '' WHERE id = ?", (member_id,))
    await store.members.member_id(ref)
    assert await display_name(store, member_id) == ""  # the cached name stands for a while

    later = time.monotonic() + member_cache.CACHED_FOR + 1
    monkeypatch.setattr(member_cache, "monotonic", lambda: later)
    assert await store.members.member_id(ref) == member_id
    assert await display_name(store, member_id) == "Eli"
