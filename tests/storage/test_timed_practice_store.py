"""Timed practice in the store, on both backends: a session keeps its time limit, its time
runs out once and only while its question is unanswered, and an outbox action queued with
a due time waits for it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.kernel.models import ActionKind, OutboxDraft
from bot.kernel.refs import ChannelRef, MemberRef
from bot.practice.store import PracticeDraft, PracticeSession, PracticeState
from bot.store import Store
from questions.catalog import QuestionKey
from tests.storage.backends import BACKENDS, open_store

AT = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
DIRECT = ChannelRef("slack", "T1", "D1", "DM")


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def open_session(store: Store, minutes: int | None) -> PracticeSession:
    ids = await store.rounds.sync_questions([QuestionKey("p", "q1", "gpu", "h1")])
    member_id = await store.members.member_id(MemberRef("slack", "T1", "U1", "ann"))
    draft = PracticeDraft(member_id, DIRECT, ids[("p", "q1")], None, AT, time_limit_minutes=minutes)
    session = await store.practice.start_session(draft)
    assert session is not None
    return session


async def test_a_timed_session_keeps_its_limit_and_runs_out_once(store: Store) -> None:
    session = await open_session(store, 10)
    assert session.time_limit_minutes == 10 and session.deadline == AT + timedelta(minutes=10)
    read = await store.practice.session(session.id)
    assert read is not None and read.time_limit_minutes == 10 and not read.timed_out

    up = AT + timedelta(minutes=10)
    assert await store.practice.run_out(session.id, PracticeState.ANSWER, up)
    assert not await store.practice.run_out(session.id, PracticeState.ANSWER, up)
    read = await store.practice.session(session.id)
    assert read is not None and read.timed_out and read.answers == 1
    assert read.state is PracticeState.ANSWER and read.touched_at == up


async def test_an_answer_first_and_an_untimed_session_never_run_out(store: Store) -> None:
    session = await open_session(store, 5)
    assert await store.practice.advance(session.id, 0, PracticeState.ANSWER, AT)
    assert not await store.practice.run_out(session.id, PracticeState.ANSWER, AT)
    read = await store.practice.session(session.id)
    assert read is not None and not read.timed_out and read.answers == 1
    await store.practice.close_session(session.id, "stopped", AT)

    untimed = await open_session(store, None)
    assert untimed.deadline is None
    assert not await store.practice.run_out(untimed.id, PracticeState.GRADE, AT)


async def test_an_action_queued_with_a_due_time_waits_for_it(store: Store) -> None:
    due = AT + timedelta(minutes=9)
    draft = OutboxDraft(
        None, ActionKind.PRACTICE_TIMER, "practice:1:clock:time-up", DIRECT, due=due
    )
    assert await store.outbox.enqueue([draft], AT) == 1
    assert await store.outbox.due_actions(AT) == []
    assert await store.outbox.next_due_after(AT) == due
    [action] = await store.outbox.due_actions(due)
    assert action.kind is ActionKind.PRACTICE_TIMER and action.destination is not None
    assert action.destination.channel_id == DIRECT.channel_id
    assert await store.outbox.enqueue([draft], AT) == 0  # its key queues it once
