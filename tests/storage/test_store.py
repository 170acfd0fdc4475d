"""SqliteStore against the Store protocol: constraints, answers, votes, rounds, outbox, boards."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from contextlib import closing
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.blind.posts import placeholder
from bot.kernel.models import (
    ActionKind,
    ActionState,
    AnswerDraft,
    AnswerMode,
    AnswerOutcome,
    ChannelSettings,
    FollowUpPolicy,
    OutboxDraft,
    Round,
    RoundState,
    direct_draft,
)
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.render import Button, Card, CardKind, Field
from bot.kernel.topic_choice import TopicChoice
from bot.practice.store import PracticeDraft, PracticeState
from bot.store import Store
from questions.catalog import QuestionKey
from questions.pack import Difficulty
from storage.errors import NotFoundError, StoreClosedError
from storage.sqlite.store import SqliteStore
from tests.storage.backends import BACKENDS, open_store
from tests.store_reads import question_ask_counts, round_actions

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ACTIONS = (ActionKind.QUESTION, ActionKind.THREAD, ActionKind.HINT)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "quiz.db"


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqliteStore]:
    """The contract suite's store: each test runs on SQLite and on PostgreSQL."""
    async with open_store(request.param, tmp_path) as opened:
        yield opened  # type: ignore[misc]  # both backends, typed as SQLite's for brevity


@pytest.fixture
async def sqlite_store(db_path: Path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore.open(db_path) as opened:
        yield opened


def channel_settings(channel: str = "C1") -> ChannelSettings:
    return ChannelSettings(id=0, ref=ChannelRef("slack", "T1", channel, "quiz"), timezone="UTC")


async def new_channel(store: Store, channel: str = "C1") -> int:
    return (await store.channels.create_channel(channel_settings(channel))).id


async def new_round(
    store: Store,
    channel_id: int,
    at: datetime = T0,
    *,
    topic: str = "gpu",
    question: str = "q1",
) -> Round:
    ids = await store.rounds.sync_questions([QuestionKey("ai-infra", question, topic, "hash")])
    created = await store.rounds.create_round(
        channel_id,
        lambda _: ids[("ai-infra", question)],
        at,
        scheduled=True,
        created_at=at,
        actions=ACTIONS,
    )
    assert created is not None
    return created


async def member(store: Store, name: str) -> int:
    return await store.members.member_id(MemberRef("slack", "T1", f"U-{name}", name))


def draft(
    round_: Round,
    member_id: int,
    message: str,
    *,
    event: str | None = None,
    at: datetime = T0,
    points: int = 10,
    bonus: int = 5,
) -> AnswerDraft:
    return AnswerDraft(
        event_id=event or f"ev-{message}",
        platform="slack",
        round_id=round_.id,
        channel_id=round_.channel_id,
        member_id=member_id,
        message_id=message,
        text=f"answer {message}",
        at=at,
        points_for_answer=points,
        bonus_before_reveal=bonus,
    )


def other_connection(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path)


# the protocol and the life cycle


async def test_sqlite_store_satisfies_the_store_protocol(db_path: Path) -> None:
    opened = await SqliteStore.connect(db_path)
    store: Store = opened  # mypy checks every method's signature here
    assert await store.meta.get_meta("missing") is None
    await store.close()
    assert opened.closed


async def test_close_stops_the_connection_thread_and_refuses_more_work(db_path: Path) -> None:
    before = set(threading.enumerate())
    store = await SqliteStore.connect(db_path)
    started = set(threading.enumerate()) - before
    assert len(started) == 1  # aiosqlite's worker thread
    await store.close()
    for thread in started:
        thread.join(timeout=5)  # it exits right after resolving close()
        assert not thread.is_alive()
    with pytest.raises(StoreClosedError):
        await store.channels.list_channels()
    with pytest.raises(StoreClosedError):
        await store.answers.record_answer(
            AnswerDraft("e", "slack", 1, 1, 1, "m", "t", T0, 10, 5),
        )
    await store.close()  # closing twice is harmless


async def test_connection_uses_wal_and_foreign_keys(sqlite_store: SqliteStore) -> None:
    assert [tuple(r) for r in await sqlite_store.database.fetch("PRAGMA journal_mode")] == [
        ("wal",)
    ]
    assert [tuple(r) for r in await sqlite_store.database.fetch("PRAGMA foreign_keys")] == [(1,)]
    assert [tuple(r) for r in await sqlite_store.database.fetch("PRAGMA synchronous")] == [
        (1,)
    ]  # NORMAL


async def test_naive_datetime_is_refused_with_a_clear_error(store: SqliteStore) -> None:
    with pytest.raises(ValueError, match="naive datetime"):
        await store.deliveries.mark_event_processed("slack", "e1", datetime(2026, 1, 1))


# channels, members, meta


async def test_create_channel_is_idempotent_and_update_round_trips(store: SqliteStore) -> None:
    created = await store.channels.create_channel(channel_settings())
    again = await store.channels.create_channel(
        replace(channel_settings(), timezone="Europe/Berlin")
    )
    assert again == created
    changed = replace(
        created,
        schedule="weekdays 09:30",
        topics=TopicChoice(only=frozenset({"gpu", "networking"})),
        followup_policy=FollowUpPolicy.WITH_REVEAL,
        paused=True,
        grace_hours=1.5,
        disabled_reason="archived",
        answer_mode=AnswerMode.BLIND,
        difficulty=Difficulty.HARD,
    )
    assert created.answer_mode is AnswerMode.THREAD
    assert created.difficulty is None
    assert await store.channels.update_channel(created, changed) == changed
    assert await store.channels.get_channel(created.ref) == changed
    assert await store.channels.get_channel_by_id(created.id) == changed
    assert await store.channels.list_channels() == [changed]
    with pytest.raises(NotFoundError):
        await store.channels.update_channel(replace(changed, id=999), replace(changed, id=999))


async def test_channel_with_no_topics_keeps_an_empty_choice_apart_from_every_topic(
    store: SqliteStore,
) -> None:
    nothing = TopicChoice(only=frozenset())
    created = await store.channels.create_channel(replace(channel_settings(), topics=nothing))
    assert created.topics == nothing
    assert (await store.channels.create_channel(channel_settings("C2"))).topics == TopicChoice()


async def test_member_id_is_stable_and_updates_the_display_name(store: SqliteStore) -> None:
    first = await store.members.member_id(MemberRef("slack", "T1", "U1", "Ann"))
    assert await store.members.member_id(MemberRef("slack", "T1", "U1")) == first
    assert await store.members.member_id(MemberRef("slack", "T1", "U1", "Annie")) == first
    assert await store.members.member_id(MemberRef("discord", "T1", "U1")) != first
    rows = await store.database.fetch("SELECT display_name FROM members WHERE id = ?", (first,))
    assert rows[0][0] == "Annie"


async def test_meta_set_and_get(store: SqliteStore) -> None:
    await store.meta.set_meta("commands", "a")
    await store.meta.set_meta("commands", "b")
    assert await store.meta.get_meta("commands") == "b"


async def test_sync_questions_is_idempotent(store: SqliteStore) -> None:
    keys = [QuestionKey("p", "q1", "gpu", "h1"), QuestionKey("p", "q2", "net", "h2")]
    ids = await store.rounds.sync_questions(keys)
    again = await store.rounds.sync_questions([replace(keys[0], content_hash="h9")])
    assert again == {("p", "q1"): ids[("p", "q1")]}
    assert len(set(ids.values())) == 2


# unique constraints


def test_unique_constraints_hold_in_the_schema(db_path: Path) -> None:
    asyncio.run(_migrate_only(db_path))
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.executescript(
        """
        INSERT INTO channels (id, platform, workspace, channel, timezone, reveal_emoji,
            reveal_min_reactors, followup_policy, grace_hours)
            VALUES (1, 'slack', 'T', 'C', 'UTC', 'x', 1, 'immediately', 6);
        INSERT INTO questions (id, pack, question, topic, content_hash)
            VALUES (1, 'p', 'q', 't', 'h');
        INSERT INTO rounds (id, channel_id, question_id, number, scheduled_for, scheduled,
            state, created_at) VALUES (1, 1, 1, 1, 'S', 1, 'closed', 'S');
        INSERT INTO members (id, platform, workspace, member) VALUES (1, 'slack', 'T', 'U');
        INSERT INTO answers (id, round_id, channel_id, member_id, message_id, text, answered_at,
            before_reveal, scoring, base_points, points)
            VALUES (1, 1, 1, 1, 'm', 't', 'A', 1, 1, 1, 1);
        INSERT INTO votes (answer_id, voter_id, voted_at) VALUES (1, 1, 'V');
        INSERT INTO outbox (round_id, kind, key, state, next_attempt_at, created_at, updated_at)
            VALUES (1, 'question', 'k', 'pending', 'N', 'N', 'N');
        INSERT INTO processed_events (platform, event_id, processed_at) VALUES ('slack', 'e', 'P');
        INSERT INTO reveal_reactors (round_id, member_id, reacted_at) VALUES (1, 1, 'R');
        """
    )
    duplicates = {
        "channel": "INSERT INTO channels (platform, workspace, channel, timezone, reveal_emoji,"
        " reveal_min_reactors, followup_policy, grace_hours)"
        " VALUES ('slack', 'T', 'C', 'UTC', 'x', 1, 'immediately', 6)",
        "question": "INSERT INTO questions (pack, question, topic, content_hash)"
        " VALUES ('p', 'q', 't2', 'h2')",
        "round slot": "INSERT INTO rounds (channel_id, question_id, number, scheduled_for,"
        " scheduled, state, created_at) VALUES (1, 1, 2, 'S', 1, 'closed', 'S')",
        "round number": "INSERT INTO rounds (channel_id, question_id, number, scheduled_for,"
        " scheduled, state, created_at) VALUES (1, 1, 1, 'S2', 1, 'closed', 'S')",
        "member": "INSERT INTO members (platform, workspace, member) VALUES ('slack', 'T', 'U')",
        "answer message": "INSERT INTO answers (round_id, channel_id, member_id, message_id, text,"
        " answered_at, before_reveal, scoring, base_points, points)"
        " VALUES (1, 1, 1, 'm', 't', 'A', 1, 0, 0, 0)",
        "second scoring answer": "INSERT INTO answers (round_id, channel_id, member_id,"
        " message_id, text, answered_at, before_reveal, scoring, base_points, points)"
        " VALUES (1, 1, 1, 'm2', 't', 'A', 1, 1, 1, 1)",
        "vote": "INSERT INTO votes (answer_id, voter_id, voted_at) VALUES (1, 1, 'V2')",
        "outbox key": "INSERT INTO outbox (round_id, kind, key, state, next_attempt_at,"
        " created_at, updated_at) VALUES (1, 'thread', 'k', 'pending', 'N', 'N', 'N')",
        "processed event": "INSERT INTO processed_events (platform, event_id, processed_at)"
        " VALUES ('slack', 'e', 'P2')",
        "reveal reactor": "INSERT INTO reveal_reactors (round_id, member_id, reacted_at)"
        " VALUES (1, 1, 'R2')",
    }
    try:
        for label, sql in duplicates.items():
            with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
                conn.execute(sql)
                pytest.fail(f"duplicate {label} was accepted")
        # a later, non-scoring answer of the same member is allowed
        conn.execute(
            "INSERT INTO answers (round_id, channel_id, member_id, message_id, text, answered_at,"
            " before_reveal, scoring, base_points, points)"
            " VALUES (1, 1, 1, 'm3', 't', 'A', 1, 0, 0, 0)"
        )
    finally:
        conn.close()


async def _migrate_only(path: Path) -> None:
    async with SqliteStore.open(path):
        pass


async def test_mark_event_processed_detects_a_duplicate_delivery(store: SqliteStore) -> None:
    assert await store.deliveries.mark_event_processed("slack", "E1", T0)
    assert not await store.deliveries.mark_event_processed("slack", "E1", T0)
    assert await store.deliveries.mark_event_processed("discord", "E1", T0)


# answers


async def test_first_answer_scores_with_bonus_later_one_is_kept(store: SqliteStore) -> None:
    round_ = await new_round(store, await new_channel(store))
    ann = await member(store, "ann")
    first = await store.answers.record_answer(draft(round_, ann, "m1"))
    second = await store.answers.record_answer(draft(round_, ann, "m2"))
    assert (first.outcome, first.before_reveal) == (AnswerOutcome.SCORED, True)
    assert second.outcome is AnswerOutcome.KEPT
    answers = await store.answers.round_answers(round_.id)
    assert [(a.message_id, a.points, a.scoring) for a in answers] == [
        ("m1", 15, True),
        ("m2", 0, False),
    ]
    assert answers[0].member_name == "ann"
    assert answers[0].id == first.answer_id


async def test_answer_after_the_reveal_gets_no_bonus(store: SqliteStore) -> None:
    round_ = await new_round(store, await new_channel(store))
    assert await store.rounds.reveal_round(round_.id, T0 + timedelta(minutes=5), [])
    assert not await store.rounds.reveal_round(round_.id, T0 + timedelta(minutes=6), [])
    early = await store.answers.record_answer(draft(round_, await member(store, "a"), "m1"))
    late = await store.answers.record_answer(
        draft(round_, await member(store, "b"), "m2", at=T0 + timedelta(minutes=10))
    )
    assert early.before_reveal and not late.before_reveal
    points = {a.message_id: a.points for a in await store.answers.round_answers(round_.id)}
    assert points == {"m1": 15, "m2": 10}


async def test_duplicate_event_or_message_is_reported_and_not_stored(store: SqliteStore) -> None:
    round_ = await new_round(store, await new_channel(store))
    ann = await member(store, "ann")
    assert (
        await store.answers.record_answer(draft(round_, ann, "m1"))
    ).outcome is AnswerOutcome.SCORED
    same_event = await store.answers.record_answer(draft(round_, ann, "m9", event="ev-m1"))
    same_message = await store.answers.record_answer(draft(round_, ann, "m1", event="other"))
    assert same_event.outcome is AnswerOutcome.DUPLICATE
    assert same_message.outcome is AnswerOutcome.DUPLICATE
    assert [a.message_id for a in await store.answers.round_answers(round_.id)] == ["m1"]


async def test_answer_for_an_unknown_round_fails_alone(store: SqliteStore) -> None:
    round_ = await new_round(store, await new_channel(store))
    ann = await member(store, "ann")
    good, bad = await asyncio.gather(
        store.answers.record_answer(draft(round_, ann, "m1")),
        store.answers.record_answer(replace(draft(round_, ann, "m2"), round_id=999)),
        return_exceptions=True,
    )
    assert not isinstance(good, BaseException) and good.outcome is AnswerOutcome.SCORED
    assert isinstance(bad, NotFoundError)


async def test_concurrent_answers_are_group_committed(
    sqlite_store: SqliteStore, db_path: Path
) -> None:
    round_ = await new_round(sqlite_store, await new_channel(sqlite_store))
    members = [await member(sqlite_store, f"m{i}") for i in range(50)]
    drafts = [draft(round_, members[i % 50], f"msg{i}") for i in range(500)]
    drafts.append(draft(round_, members[0], "msg0", event="replayed"))  # same message again
    drafts.append(draft(round_, members[1], "msg-x", event="ev-msg1"))  # same event again
    batches_before = sqlite_store.answers.answer_batches
    results = await asyncio.gather(*(sqlite_store.answers.record_answer(d) for d in drafts))
    outcomes = [r.outcome for r in results]
    assert outcomes.count(AnswerOutcome.SCORED) == 50
    assert outcomes.count(AnswerOutcome.KEPT) == 450
    assert outcomes.count(AnswerOutcome.DUPLICATE) == 2
    assert all(r.outcome is AnswerOutcome.SCORED for r in results[:50])
    assert sqlite_store.answers.answer_batches - batches_before < 20  # batched, not one commit each
    with closing(other_connection(db_path)) as conn:  # committed, as seen from outside
        scoring = conn.execute(
            "SELECT member_id, COUNT(*) FROM answers WHERE scoring = 1 GROUP BY member_id"
        ).fetchall()
        total = conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        events = conn.execute("SELECT COUNT(*) FROM processed_events").fetchone()[0]
    assert sorted(scoring) == [(m, 1) for m in members]
    assert total == 500
    assert events == 501


async def test_a_failed_batch_fails_every_caller(sqlite_store: SqliteStore, db_path: Path) -> None:
    round_ = await new_round(sqlite_store, await new_channel(sqlite_store))
    ann = await member(sqlite_store, "ann")
    blocker = sqlite3.connect(db_path, timeout=0)
    blocker.execute("BEGIN IMMEDIATE")  # hold the write lock so the batch cannot commit
    await sqlite_store.database.change("PRAGMA busy_timeout = 50")
    try:
        results = await asyncio.gather(
            *(sqlite_store.answers.record_answer(draft(round_, ann, f"m{i}")) for i in range(5)),
            return_exceptions=True,
        )
    finally:
        blocker.rollback()
        blocker.close()
    assert all(isinstance(r, sqlite3.OperationalError) for r in results)
    assert await sqlite_store.answers.round_answers(round_.id) == []
    retried = await sqlite_store.answers.record_answer(draft(round_, ann, "m0"))
    assert retried.outcome is AnswerOutcome.SCORED


async def test_a_failing_transaction_never_rolls_back_other_tasks_writes(
    sqlite_store: SqliteStore, db_path: Path
) -> None:
    channel_id = await new_channel(sqlite_store)
    round_ = await new_round(sqlite_store, channel_id)
    ann = await member(sqlite_store, "ann")
    answers = [sqlite_store.answers.record_answer(draft(round_, ann, f"m{i}")) for i in range(100)]
    failing = [
        sqlite_store.answers.record_vote(999, ann, T0, per_vote=1, max_votes=3) for _ in range(20)
    ]
    events = [
        sqlite_store.deliveries.mark_event_processed("slack", f"other-{i}", T0) for i in range(20)
    ]
    results = await asyncio.gather(*answers, *failing, *events, return_exceptions=True)
    assert all(isinstance(r, NotFoundError) for r in results[100:120])
    assert results[120:] == [True] * 20
    with closing(other_connection(db_path)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 100
        assert conn.execute("SELECT COUNT(*) FROM processed_events").fetchone()[0] == 120


async def test_close_commits_answers_still_queued(db_path: Path) -> None:
    store = await SqliteStore.connect(db_path)
    round_ = await new_round(store, await new_channel(store))
    ann = await member(store, "ann")
    pending = [
        asyncio.create_task(store.answers.record_answer(draft(round_, ann, f"m{i}")))
        for i in range(50)
    ]
    await asyncio.sleep(0)  # the tasks queue their answers
    await store.close()
    outcomes = [(await task).outcome for task in pending]
    assert outcomes == [AnswerOutcome.SCORED] + [AnswerOutcome.KEPT] * 49
    with closing(other_connection(db_path)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 50


async def test_edit_answer_and_lookups(store: SqliteStore) -> None:
    channel_id = await new_channel(store)
    round_ = await new_round(store, channel_id)
    ann = await member(store, "ann")
    await store.answers.record_answer(draft(round_, ann, "m1"))
    assert await store.answers.edit_answer(round_.id, "m1", "better", T0 + timedelta(minutes=1))
    assert not await store.answers.edit_answer(round_.id, "nope", "x", T0)
    found = await store.answers.answer_by_message_in_channel(channel_id, "m1")
    assert found is not None and found.text == "better"
    assert await store.answers.answer_by_message_in_channel(channel_id + 1, "m1") is None
    assert await store.answers.answer_by_message_in_channel(channel_id, "m2") is None


async def test_blind_answers_wait_oldest_first_until_posted_then_take_votes(
    store: SqliteStore,
) -> None:
    channel_id = await new_channel(store)
    round_ = await new_round(store, channel_id)
    ann, bob = await member(store, "ann"), await member(store, "bob")
    later = T0 + timedelta(minutes=2)
    await store.answers.record_answer(draft(round_, bob, placeholder(bob), at=later))
    await store.answers.record_answer(draft(round_, ann, "m1"))  # a reply in the thread
    first = await store.answers.record_answer(draft(round_, ann, placeholder(ann), at=T0))
    assert first.answer_id is not None
    waiting = await store.answers.waiting_blind_answers(round_.id)
    assert [a.message_id for a in waiting] == [placeholder(ann), placeholder(bob)]

    assert await store.answers.answer_posted(first.answer_id, placeholder(ann), "p1")
    assert not await store.answers.answer_posted(first.answer_id, placeholder(ann), "p2")  # once
    assert [a.member_name for a in await store.answers.waiting_blind_answers(round_.id)] == ["bob"]
    posted = await store.answers.answer_by_message_in_channel(channel_id, "p1")
    assert posted is not None and posted.id == first.answer_id

    assert not await store.answers.withdraw_answer(
        first.answer_id, placeholder(ann)
    )  # posted: kept
    [bobs] = await store.answers.waiting_blind_answers(round_.id)
    assert await store.answers.withdraw_answer(bobs.id, placeholder(bob))
    assert await store.answers.waiting_blind_answers(round_.id) == []


async def test_votes_count_once_and_points_are_capped(store: SqliteStore) -> None:
    round_ = await new_round(store, await new_channel(store))
    ann = await member(store, "ann")
    result = await store.answers.record_answer(draft(round_, ann, "m1"))
    assert result.answer_id is not None
    voters = [await member(store, f"v{i}") for i in range(4)]
    votes = [
        await store.answers.record_vote(result.answer_id, v, T0, per_vote=2, max_votes=3)
        for v in voters
    ]
    repeat = await store.answers.record_vote(
        result.answer_id, voters[0], T0, per_vote=2, max_votes=3
    )
    assert votes == [True] * 4 and not repeat
    answer = await store.answers.answer_by_message_in_channel(round_.channel_id, "m1")
    assert answer is not None
    assert (answer.votes, answer.points) == (4, 15 + 2 * 3)
    with pytest.raises(NotFoundError):
        await store.answers.record_vote(999, voters[0], T0, per_vote=2, max_votes=3)


# rounds and the outbox


async def test_create_round_numbers_rounds_closes_the_previous_and_enqueues(
    store: SqliteStore,
) -> None:
    channel_id = await new_channel(store)
    first = await new_round(store, channel_id, T0)
    second = await new_round(store, channel_id, T0 + timedelta(days=1), question="q2")
    assert (first.number, second.number) == (1, 2)
    assert first.state is RoundState.OPEN
    closed = await store.rounds.get_round(first.id)
    assert closed is not None and closed.state is RoundState.CLOSED
    assert closed.closed_at == T0 + timedelta(days=1)
    assert await store.rounds.open_round(channel_id) == second
    assert await store.rounds.latest_round(channel_id) == second
    actions = await round_actions(store, second.id)
    assert [(a.kind, a.key) for a in actions] == [
        (kind, f"round:{second.id}:{kind.value}") for kind in ACTIONS
    ]
    assert await question_ask_counts(store, channel_id) == {
        first.question_id: 1,
        second.question_id: 1,
    }


async def test_create_round_for_a_taken_slot_changes_nothing(store: SqliteStore) -> None:
    channel_id = await new_channel(store)
    first = await new_round(store, channel_id, T0)
    again = await store.rounds.create_round(
        channel_id,
        lambda _: first.question_id,
        T0,
        scheduled=True,
        created_at=T0 + timedelta(hours=1),
        actions=ACTIONS,
    )
    assert again is None
    assert await store.rounds.open_round(channel_id) == first
    assert len(await store.outbox.due_actions(T0 + timedelta(days=1))) == len(ACTIONS)


async def test_round_close_and_reveal_reactors(store: SqliteStore) -> None:
    round_ = await new_round(store, await new_channel(store))
    ann, bob = await member(store, "ann"), await member(store, "bob")
    assert await store.rounds.add_reveal_reactor(round_.id, ann, at=T0) == 1
    assert await store.rounds.add_reveal_reactor(round_.id, ann, at=T0) == 1
    assert await store.rounds.add_reveal_reactor(round_.id, bob, at=T0) == 2
    assert await store.rounds.skip_round(round_.id, T0 + timedelta(hours=1))
    assert not await store.rounds.skip_round(round_.id, T0 + timedelta(hours=2))
    assert await store.rounds.open_round(round_.channel_id) is None


async def test_a_round_is_read_with_its_channel_in_one_call(store: SqliteStore) -> None:
    await new_channel(store, "C0")  # ids of rounds and channels differ
    channel_id = await new_channel(store, "C1")
    round_ = await new_round(store, channel_id)
    assert await store.rounds.round_in_channel(round_.id) == (
        await store.rounds.get_round(round_.id),
        await store.channels.get_channel_by_id(channel_id),
    )
    assert await store.rounds.round_in_channel(round_.id + 1000) is None


async def test_one_action_is_completed_and_the_next_begun_together(store: SqliteStore) -> None:
    round_ = await new_round(store, await new_channel(store))
    question, thread, _ = await round_actions(store, round_.id)
    await store.outbox.begin_attempt(question.id, T0)
    begun = await store.outbox.complete_and_begin(question.id, "msg-1", thread.id, T0)
    assert begun is not None
    assert (begun.id, begun.attempts, begun.state) == (thread.id, 1, ActionState.PENDING)
    done = (await round_actions(store, round_.id))[0]
    assert (done.state, done.result_ref) == (ActionState.DONE, "msg-1")
    assert (await store.rounds.get_round(round_.id)).question_message == "msg-1"  # type: ignore[union-attr]
    await store.outbox.complete_action(thread.id, "t-1", T0)
    assert (
        await store.outbox.complete_and_begin(question.id, "msg-1", thread.id, T0) is None
    )  # done
    with pytest.raises(NotFoundError):
        await store.outbox.complete_and_begin(thread.id, "t-1", 999, T0)


async def test_postponed_actions_fall_due_later_with_no_attempt_counted(
    store: SqliteStore,
) -> None:
    round_ = await new_round(store, await new_channel(store))
    question, thread, hint = await round_actions(store, round_.id)
    await store.outbox.complete_action(question.id, "msg-1", T0)
    later = T0 + timedelta(seconds=1)
    await store.outbox.postpone_actions([question.id, thread.id, hint.id], later, at=T0)
    assert await store.outbox.due_actions(T0) == []
    assert await store.outbox.next_due_after(T0) == later
    due = await store.outbox.due_actions(later)
    assert [(a.id, a.attempts, a.last_error) for a in due] == [
        (thread.id, 0, None),
        (hint.id, 0, None),
    ]
    done = (await round_actions(store, round_.id))[0]
    assert (done.state, done.next_attempt_at) == (ActionState.DONE, question.next_attempt_at)


async def test_outbox_lifecycle(store: SqliteStore) -> None:
    channel_id = await new_channel(store)
    round_ = await new_round(store, channel_id)
    question, thread, hint = await round_actions(store, round_.id)
    extra = OutboxDraft(round_.id, ActionKind.OUTLINE, f"round:{round_.id}:outline")
    assert (
        await store.outbox.enqueue([extra, OutboxDraft(round_.id, ActionKind.HINT, hint.key)], T0)
        == 1
    )
    assert await store.outbox.enqueue([extra], T0) == 0

    assert await store.outbox.due_actions(T0 - timedelta(seconds=1)) == []
    due = await store.outbox.due_actions(T0)
    assert [a.kind for a in due] == [*ACTIONS, ActionKind.OUTLINE]
    assert [a.kind for a in await store.outbox.due_actions(T0, limit=2)] == list(ACTIONS[:2])

    attempt = await store.outbox.begin_attempt(question.id, T0)
    assert attempt is not None
    assert attempt.attempts == 1 and attempt.state is ActionState.PENDING
    await store.outbox.retry_action(question.id, "HTTP 500", T0 + timedelta(minutes=1), at=T0)
    assert [a.kind for a in await store.outbox.due_actions(T0)] == [
        ActionKind.THREAD,
        *ACTIONS[2:],
        ActionKind.OUTLINE,
    ]
    retried = await store.outbox.due_actions(T0 + timedelta(minutes=1))
    assert retried[0].id == question.id and retried[0].last_error == "HTTP 500"
    again = await store.outbox.begin_attempt(question.id, T0 + timedelta(minutes=1))  # due again
    assert again is not None and again.attempts == 2

    await store.outbox.complete_action(question.id, "msg-1", T0)
    await store.outbox.complete_action(thread.id, "thread-1", T0)
    await store.outbox.fail_action(hint.id, "forbidden", T0)
    await store.outbox.fail_action(question.id, "too late", T0)  # done stays done
    await store.outbox.retry_action(hint.id, "again?", T0, at=T0)  # failed stays failed
    updated = await store.rounds.get_round(round_.id)
    assert updated is not None
    assert (updated.question_message, updated.thread) == ("msg-1", "thread-1")
    assert await store.rounds.round_by_message(channel_id, "msg-1") == updated
    assert await store.rounds.round_by_thread(channel_id, "thread-1") == updated
    states = {a.kind: (a.state, a.result_ref) for a in await round_actions(store, round_.id)}
    assert states[ActionKind.QUESTION] == (ActionState.DONE, "msg-1")
    assert states[ActionKind.HINT] == (ActionState.FAILED, None)
    assert [a.last_error for a in await round_actions(store, round_.id)][2] == "forbidden"
    assert await store.outbox.fail_channel_actions(channel_id, "channel archived", T0) == 1
    assert await store.outbox.due_actions(T0 + timedelta(days=1)) == []
    stats = await store.reports.channel_stats(channel_id)
    assert (stats.pending_actions, stats.failed_actions) == (0, 2)
    assert await store.outbox.outbox_counts() == {"done": 2, "failed": 2}
    assert await store.outbox.begin_attempt(question.id, T0) is None  # done: not to be sent again
    with pytest.raises(NotFoundError):
        await store.outbox.begin_attempt(999, T0)
    with pytest.raises(NotFoundError):
        await store.outbox.complete_action(999, None, T0)
    with pytest.raises(NotFoundError):
        await store.outbox.fail_action(999, "x", T0)


# reports


async def test_leaderboard_orders_by_points_answers_first_answer_and_id(
    store: SqliteStore,
) -> None:
    channel_id = await new_channel(store)
    r1 = await new_round(store, channel_id, T0, question="q1")
    r2 = await new_round(store, channel_id, T0 + timedelta(days=1), question="q2")
    names = ["ann", "bob", "cid", "dan", "eve"]
    ids = {name: await member(store, name) for name in names}
    day2 = T0 + timedelta(days=1)
    # ann: 20 in two answers; bob: 20 in one; cid and dan: 10 each, cid first; eve: 10 later
    await store.answers.record_answer(draft(r1, ids["ann"], "a1", points=10, bonus=0))
    await store.answers.record_answer(draft(r2, ids["ann"], "a2", at=day2, points=10, bonus=0))
    await store.answers.record_answer(draft(r2, ids["bob"], "b1", at=day2, points=20, bonus=0))
    await store.answers.record_answer(draft(r1, ids["cid"], "c1", at=T0, points=10, bonus=0))
    await store.answers.record_answer(draft(r1, ids["dan"], "d1", at=T0, points=10, bonus=0))
    await store.answers.record_answer(draft(r2, ids["eve"], "e1", at=day2, points=10, bonus=0))
    board = await store.reports.leaderboard(channel_id, None)
    assert [(r.rank, r.member_name, r.points, r.answers) for r in board] == [
        (1, "ann", 20, 2),
        (2, "bob", 20, 1),
        (3, "cid", 10, 1),
        (4, "dan", 10, 1),
        (5, "eve", 10, 1),
    ]
    assert ids["cid"] < ids["dan"]  # equal first answers: the member id decides
    recent = await store.reports.leaderboard(channel_id, day2)
    assert [(r.member_name, r.points) for r in recent] == [("bob", 20), ("ann", 10), ("eve", 10)]
    assert [r.member_name for r in await store.reports.leaderboard(channel_id, None, limit=2)] == [
        "ann",
        "bob",
    ]
    assert await store.reports.leaderboard(channel_id + 1, None) == []


async def test_member_history_and_channel_stats(store: SqliteStore) -> None:
    channel_id = await new_channel(store)
    r1 = await new_round(store, channel_id, T0, question="q1", topic="gpu")
    r2 = await new_round(store, channel_id, T0 + timedelta(days=1), question="q2", topic="net")
    r3 = await new_round(store, channel_id, T0 + timedelta(days=2), question="q3", topic="gpu")
    ann, bob, cid = [await member(store, n) for n in ("ann", "bob", "cid")]
    a1 = await store.answers.record_answer(draft(r1, ann, "a1"))
    await store.answers.record_answer(draft(r1, ann, "a1b"))  # kept: not a second gpu answer
    await store.answers.record_answer(draft(r3, ann, "a3"))
    await store.answers.record_answer(draft(r2, bob, "b2", points=100))
    assert a1.answer_id is not None
    await store.answers.record_vote(a1.answer_id, bob, T0, per_vote=1, max_votes=5)
    await store.rounds.reveal_round(r1.id, T0, [])

    history = await store.reports.member_history(channel_id, ann)
    assert (history.points, history.answers, history.rank) == (31, 2, 2)
    assert history.answers_per_topic == {"gpu": 2}
    assert history.scheduled_round_ids == (r1.id, r2.id, r3.id)
    assert history.answered_round_ids == frozenset({r1.id, r3.id})
    nobody = await store.reports.member_history(channel_id, cid)
    assert (nobody.points, nobody.answers, nobody.rank) == (0, 0, None)

    stats = await store.reports.channel_stats(channel_id)
    # a1b is ann's second reply in r1: kept, but no second answer
    assert (stats.rounds, stats.answers, stats.members, stats.votes) == (3, 3, 2, 1)
    # r1 and r2 were revealed when the next round closed them: their follow-ups and outline
    # are queued too (3 rounds x 3 actions, and 2 x 2)
    assert (stats.revealed_rounds, stats.pending_actions, stats.failed_actions) == (2, 13, 0)


async def test_practice_sessions_one_open_per_member(store: SqliteStore) -> None:
    channel_id = await new_channel(store)
    question_id = (await new_round(store, channel_id)).question_id
    ann = await member(store, "ann")
    direct = ChannelRef("slack", "T1", "D-ann", "DM")
    started = await store.practice.start_session(PracticeDraft(ann, direct, question_id, "gpu", T0))
    assert started is not None
    again = PracticeDraft(ann, direct, question_id, None, T0)
    assert await store.practice.start_session(again) is None  # one open session a member
    assert await store.practice.advance(started.id, 0, PracticeState.GRADE, T0)
    assert not await store.practice.advance(started.id, 0, PracticeState.GRADE, T0)  # stale
    assert await store.practice.close_session(started.id, "graded", T0)
    assert await store.practice.open_session(ann) is None
    assert await store.practice.start_session(again) is not None


async def test_a_practice_session_keeps_its_difficulty(store: SqliteStore) -> None:
    channel_id = await new_channel(store)
    question_id = (await new_round(store, channel_id)).question_id
    ann, bob = await member(store, "ann"), await member(store, "bob")
    direct = ChannelRef("slack", "T1", "D-ann", "DM")
    draft = PracticeDraft(ann, direct, question_id, "gpu", T0, Difficulty.EASY)
    started = await store.practice.start_session(draft)
    assert started is not None and started.difficulty is Difficulty.EASY
    assert await store.practice.session(started.id) == started
    assert await store.practice.open_session(ann) == started
    plain = PracticeDraft(bob, replace(direct, channel_id="D-bob"), question_id, None, T0)
    other = await store.practice.start_session(plain)
    assert other is not None and other.difficulty is None
    assert await store.practice.open_session_in(other.direct) == other


async def test_recap_catch_up_queries_work_on_every_backend(store: SqliteStore) -> None:
    """The batched start-up queries of the weekly recap (one query for all channels)."""
    first, second = await new_channel(store, "C1"), await new_channel(store, "C2")
    early = await new_round(store, first, T0)
    late = await new_round(store, first, T0 + timedelta(days=2), question="q2")
    windows = [
        (first, T0 - timedelta(days=1), T0 + timedelta(days=3)),
        (second, T0 - timedelta(days=1), T0 + timedelta(days=3)),
        (first, T0 - timedelta(days=1), T0 + timedelta(days=1)),
    ]
    assert await store.recaps.last_rounds_between(windows) == [late.id, None, early.id]
    assert await store.recaps.last_rounds_between([]) == []
    assert await store.recaps.recorded_keys({"recap:1:2026-W01", "recap:2:2026-W01"}) == set()


async def test_a_direct_action_belongs_to_no_round_and_carries_its_card(store: SqliteStore) -> None:
    channel_id = await new_channel(store)
    round_ = await new_round(store, channel_id)
    dm = ChannelRef("slack", "T1", "D-ann")
    card = Card(
        "Practice question",
        body="Why?",
        fields=(Field("Topic", "gpu", inline=True),),
        buttons=(Button("Good", "grade_good", "practice:1"),),
        kind=CardKind.QUESTION,
        bullets=("one", "two"),
    )
    draft = direct_draft(dm, card, "practice:1:question")
    assert await store.outbox.enqueue([draft], T0) == 1
    assert await store.outbox.enqueue([draft], T0) == 0  # the key is the idempotency key
    due = await store.outbox.due_actions(T0, platforms={"slack"})
    direct = [a for a in due if a.round_id is None]
    assert [(a.kind, a.key, a.destination, a.card) for a in direct] == [
        (ActionKind.DIRECT, "practice:1:question", dm, card)
    ]
    assert len(due) == len(ACTIONS) + 1  # the channel is on slack too
    assert [a.key for a in await store.outbox.due_actions(T0, platforms={"discord"})] == []
    await store.outbox.begin_attempt(direct[0].id, T0)
    await store.outbox.complete_action(direct[0].id, "m1", T0)
    assert [a.round_id for a in await store.outbox.due_actions(T0)] == [round_.id] * len(ACTIONS)
    # a done direct action is pruned once it is old; a round's stay while it is open
    pruned = await store.outbox.prune_done_actions(T0 + timedelta(days=1), limit=100)
    assert pruned.deleted == 1
    assert await store.outbox.enqueue([draft], T0) == 1  # gone: its key is free again


# blind answers left by a round closed before its reveal


async def blind_answer(store: SqliteStore, round_: Round, name: str) -> int:
    who = await member(store, name)
    event = f"ev-{round_.id}-{name}"
    result = await store.answers.record_answer(draft(round_, who, placeholder(who), event=event))
    assert result.answer_id is not None
    return result.answer_id


async def test_closing_an_unrevealed_round_queues_the_post_of_its_waiting_blind_answers(
    store: SqliteStore,
) -> None:
    channel_id = await new_channel(store)
    skipped = await new_round(store, channel_id, T0)
    await blind_answer(store, skipped, "ann")
    assert await store.rounds.skip_round(skipped.id, T0 + timedelta(hours=1))
    replaced = await new_round(store, channel_id, T0 + timedelta(days=1), question="q2")
    await blind_answer(store, replaced, "bob")
    await new_round(store, channel_id, T0 + timedelta(days=2), question="q3")  # closes it

    blind = ActionKind.BLIND_ANSWERS
    skipped_actions = [(a.kind, a.key) for a in await round_actions(store, skipped.id)]
    assert skipped_actions[-1] == (blind, f"round:{skipped.id}:{blind.value}")
    # the round the next one closed is revealed by it: its blind answers, then its outline
    kinds = [a.kind for a in await round_actions(store, replaced.id)]
    assert kinds[-3:] == [blind, ActionKind.FOLLOW_UPS, ActionKind.OUTLINE]


async def test_a_round_closed_without_waiting_blind_answers_or_after_its_reveal_queues_none(
    store: SqliteStore,
) -> None:
    channel_id = await new_channel(store)
    empty = await new_round(store, channel_id, T0)
    await store.answers.record_answer(draft(empty, await member(store, "ann"), "m1"))  # a reply
    assert await store.rounds.skip_round(empty.id, T0 + timedelta(hours=1))
    revealed = await new_round(store, channel_id, T0 + timedelta(days=1), question="q2")
    await blind_answer(store, revealed, "bob")
    assert await store.rounds.reveal_round(revealed.id, T0 + timedelta(days=1, hours=1), [])
    await new_round(store, channel_id, T0 + timedelta(days=2), question="q3")
    for closed in (empty, revealed):
        kinds = [a.kind for a in await round_actions(store, closed.id)]
        assert ActionKind.BLIND_ANSWERS not in kinds


async def test_rounds_with_unposted_blind_answers_are_listed_oldest_first(
    store: SqliteStore,
) -> None:
    channel_id = await new_channel(store)
    other = await new_round(store, await new_channel(store, "C2"), T0)
    await blind_answer(store, other, "ann")
    first = await new_round(store, channel_id, T0)
    posted = await blind_answer(store, first, "ann")
    second = await new_round(store, channel_id, T0 + timedelta(days=1), question="q2")
    await blind_answer(store, second, "bob")
    third = await new_round(store, channel_id, T0 + timedelta(days=2), question="q3")
    await store.answers.record_answer(draft(third, await member(store, "cid"), "m3"))  # a reply
    fourth = await new_round(store, channel_id, T0 + timedelta(days=3), question="q4")
    await blind_answer(store, fourth, "cid")
    await blind_answer(store, fourth, "dee")

    listed = await store.rounds.rounds_with_unposted_blind_answers(channel_id)
    assert [r.id for r in listed] == [first.id, second.id, fourth.id]
    assert await store.answers.answer_posted(posted, placeholder(await member(store, "ann")), "p1")
    listed = await store.rounds.rounds_with_unposted_blind_answers(channel_id)
    assert [(r.id, r.state) for r in listed] == [
        (second.id, RoundState.CLOSED),
        (fourth.id, RoundState.OPEN),
    ]


async def test_a_blind_answer_changes_only_while_its_round_is_open_and_not_revealed(
    store: SqliteStore,
) -> None:
    channel_id = await new_channel(store)
    ann, bob = await member(store, "ann"), await member(store, "bob")
    revealed = await new_round(store, channel_id, T0)
    await blind_answer(store, revealed, "ann")
    at = T0 + timedelta(minutes=1)
    assert await store.answers.edit_blind_answer(revealed.id, placeholder(ann), "better", at)
    assert not await store.answers.edit_blind_answer(revealed.id, placeholder(bob), "none yet", at)
    assert await store.rounds.reveal_round(revealed.id, at, [])
    assert not await store.answers.edit_blind_answer(revealed.id, placeholder(ann), "too late", at)

    closed = await new_round(store, channel_id, T0 + timedelta(days=1), question="q2")
    await blind_answer(store, closed, "bob")
    assert await store.rounds.skip_round(closed.id, T0 + timedelta(days=1, hours=1))
    assert not await store.answers.edit_blind_answer(closed.id, placeholder(bob), "too late", at)
    texts = [a.text for r in (revealed, closed) for a in await store.answers.round_answers(r.id)]
    assert texts == ["better", f"answer {placeholder(bob)}"]


async def test_on_postgresql_a_blind_change_waits_for_a_reveal_committing_meanwhile(
    tmp_path: Path,
) -> None:
    """Its transactions run concurrently: a change must not check the round in a snapshot
    taken before a reveal that commits while it runs (the reveal would post the old text)."""
    from storage.postgres.store import PostgresStore
    from storage.timestamps import to_db

    async with open_store("postgres", tmp_path) as opened:
        assert isinstance(opened, PostgresStore)
        store = opened
        round_ = await new_round(store, await new_channel(store))
        ann = await member(store, "ann")
        await blind_answer(store, round_, "ann")  # type: ignore[arg-type]
        pool = store.database.pooled()
        async with pool.acquire() as reveal, pool.acquire() as watch:
            revealing = reveal.transaction()
            await revealing.start()
            await reveal.execute(
                "UPDATE rounds SET revealed_at = $1 WHERE id = $2", to_db(T0), round_.id
            )
            change = asyncio.create_task(
                store.answers.edit_blind_answer(round_.id, placeholder(ann), "too late", T0)
            )
            blocked_by_reveal = (
                "SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))"
            )
            while not change.done() and not await watch.fetchval(
                blocked_by_reveal, reveal.get_server_pid()
            ):
                await asyncio.wait({change}, timeout=0.01)
            await revealing.commit()
        assert not await change
        [answer] = await store.answers.round_answers(round_.id)
        assert answer.text == f"answer {placeholder(ann)}"
