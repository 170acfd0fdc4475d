"""A practice session's step keeps its direct message's event id in the same transaction,
and a practice grade closes its session in the grade's transaction, on both backends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.kernel.errors import DuplicateDelivery
from bot.kernel.grades import Grade
from bot.kernel.models import Delivery
from bot.kernel.refs import ChannelRef, MemberRef
from bot.learning import memory_model
from bot.learning.store import GradeDraft, SessionOver
from bot.practice.store import PracticeDraft, PracticeSession, PracticeState
from bot.store import Store
from questions.catalog import QuestionKey
from tests.storage.backends import BACKENDS, open_store

AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DIRECT = ChannelRef("slack", "T1", "D1", "DM")


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def open_session(store: Store) -> PracticeSession:
    ids = await store.rounds.sync_questions([QuestionKey("p", "q1", "gpu", "h1")])
    member_id = await store.members.member_id(MemberRef("slack", "T1", "U1", "ann"))
    session = await store.practice.start_session(
        PracticeDraft(member_id, DIRECT, ids[("p", "q1")], None, AT)
    )
    assert session is not None
    return session


async def test_a_step_records_its_event_id_and_a_redelivery_is_refused(store: Store) -> None:
    session = await open_session(store)
    later = AT + timedelta(minutes=1)
    answer = Delivery("slack", "Ev1")

    assert await store.practice.advance(session.id, 0, PracticeState.GRADE, later, delivery=answer)
    assert await store.deliveries.event_processed("slack", "Ev1")

    with pytest.raises(DuplicateDelivery):
        await store.practice.advance(session.id, 1, PracticeState.GRADE, later, delivery=answer)
    current = await store.practice.session(session.id)
    assert current is not None and current.answers == 1  # the redelivery changed nothing


async def test_a_step_that_changed_nothing_keeps_no_event_id(store: Store) -> None:
    session = await open_session(store)
    later = AT + timedelta(minutes=1)
    racing = Delivery("slack", "Ev2")

    # another answer moved the session on first: this one is no step, and may come again
    assert await store.practice.advance(session.id, 0, PracticeState.ANSWER, later)
    stale = await store.practice.advance(
        session.id, 0, PracticeState.ANSWER, later, delivery=racing
    )
    assert not stale
    assert not await store.deliveries.event_processed("slack", "Ev2")


async def test_a_practice_grade_closes_its_session_or_is_not_recorded(store: Store) -> None:
    session = await open_session(store)
    later = AT + timedelta(minutes=2)
    draft = GradeDraft(
        session.member_id, session.question_id, Grade.GOOD, later, closes_session=session.id
    )
    builders = {"member_card": memory_model.member_card, "channel_card": memory_model.channel_card}

    await store.learning.record_grade(draft, **builders)
    assert await store.practice.open_session(session.member_id) is None

    with pytest.raises(SessionOver):  # a second press: the session is graded already
        await store.learning.record_grade(draft, **builders)
    assert len(await store.learning.grade_log(session.member_id)) == 1


async def test_on_postgresql_a_session_opened_meanwhile_is_waited_for_not_opened_twice(
    tmp_path: Path,
) -> None:
    """Two starts at once (a double click, or two replicas): the second's check for an open
    session ran before the first committed, so its insert meets the one-open-session index;
    it must end in "already open", not a unique violation."""
    from storage.postgres.store import PostgresStore
    from storage.timestamps import to_db

    async with open_store("postgres", tmp_path) as opened:
        assert isinstance(opened, PostgresStore)
        store = opened
        first = await open_session(store)
        await store.practice.close_session(first.id, "stopped", AT)
        pool = store.database.pooled()
        async with pool.acquire() as other, pool.acquire() as watch:
            starting = other.transaction()
            await starting.start()
            await other.execute(
                "INSERT INTO practice_sessions (member_id, platform, workspace, direct_channel,"
                " question_id, answers, state, started_at, touched_at)"
                " VALUES ($1, 'slack', 'T1', 'D1', $2, 0, 'answer', $3, $3)",
                first.member_id,
                first.question_id,
                to_db(AT),
            )
            start = asyncio.create_task(
                store.practice.start_session(
                    PracticeDraft(first.member_id, DIRECT, first.question_id, None, AT)
                )
            )
            blocked = "SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))"
            while not start.done() and not await watch.fetchval(blocked, other.get_server_pid()):
                await asyncio.wait({start}, timeout=0.01)
            await starting.commit()
        assert await start is None
        assert await store.practice.open_session(first.member_id) is not None
