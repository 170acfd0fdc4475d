"""Several replicas on one PostgreSQL database: one wins each slot, outbox leases are
taken over when a replica dies, and an action is completed once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.kernel.models import ActionKind, ActionState, ChannelSettings, Round, RoundState
from bot.kernel.refs import ChannelRef
from questions.catalog import QuestionKey
from storage.postgres.store import PostgresStore
from tests.storage.backends import postgres_schema
from tests.store_reads import round_actions

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
LEASE = timedelta(seconds=60)


@pytest.fixture
async def replicas() -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    async with (
        postgres_schema() as url,
        PostgresStore.open(url, replica="a", lease=LEASE) as a,
        PostgresStore.open(url, replica="b", lease=LEASE) as b,
    ):
        yield a, b


async def channels(store: PostgresStore, count: int) -> tuple[list[int], int]:
    ids = await store.rounds.sync_questions([QuestionKey("p", "q1", "gpu", "h")])
    made = [
        await store.channels.create_channel(
            ChannelSettings(0, ChannelRef("slack", "T", f"C{i}"), "UTC")
        )
        for i in range(count)
    ]
    return [c.id for c in made], ids[("p", "q1")]


async def a_round_whose_question_is_due(store: PostgresStore) -> Round:
    """One channel's scheduled round at T0 with only its question to send."""
    [channel_id], question = await channels(store, 1)
    round_ = await store.rounds.create_round(
        channel_id,
        lambda _: question,
        T0,
        scheduled=True,
        created_at=T0,
        actions=[ActionKind.QUESTION],
    )
    assert round_ is not None
    return round_


async def test_two_replicas_racing_for_each_slot_create_it_once(
    replicas: tuple[PostgresStore, PostgresStore], caplog: pytest.LogCaptureFixture
) -> None:
    a, b = replicas
    channel_ids, question = await channels(a, 30)
    for channel_id in channel_ids:  # yesterday's round, which today's must close
        await a.rounds.create_round(
            channel_id,
            lambda _: question,
            T0 - timedelta(days=1),
            scheduled=True,
            created_at=T0 - timedelta(days=1),
            actions=[ActionKind.QUESTION],
        )

    async def create(store: PostgresStore, channel_id: int) -> object:
        return await store.rounds.create_round(
            channel_id,
            lambda _: question,
            T0,
            scheduled=True,
            created_at=T0,
            actions=[ActionKind.QUESTION, ActionKind.THREAD],
        )

    with caplog.at_level(logging.WARNING):
        results = await asyncio.gather(*(create(store, c) for c in channel_ids for store in (a, b)))
    for index, channel_id in enumerate(channel_ids):
        pair = results[2 * index : 2 * index + 2]
        assert sum(r is not None for r in pair) == 1, channel_id  # exactly one replica won
        latest = await a.rounds.latest_round(channel_id)
        assert latest is not None and latest.scheduled_for == T0
        assert latest.state is RoundState.OPEN and latest.number == 2
        assert len(await round_actions(a, latest.id)) == 2  # enqueued once
    # yesterday's question and, as today's closed it, its follow-ups and outline; today's 2
    assert (await b.outbox.outbox_counts())["pending"] == 30 * 5
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_lease_keeps_others_off_until_it_ends_then_one_takes_over(
    replicas: tuple[PostgresStore, PostgresStore],
) -> None:
    a, b = replicas
    round_ = await a_round_whose_question_is_due(a)

    [claimed] = await a.outbox.due_actions(T0)
    await a.outbox.begin_attempt(claimed.id, T0)  # replica a starts sending, then dies
    assert await b.outbox.due_actions(T0 + timedelta(seconds=1)) == []
    assert await b.outbox.due_actions(T0 + LEASE - timedelta(seconds=1)) == []
    assert await b.outbox.next_due_after(T0 + timedelta(seconds=1)) == T0 + LEASE  # b wakes then

    after = T0 + LEASE + timedelta(seconds=1)
    taken, other = await asyncio.gather(b.outbox.due_actions(after), a.outbox.due_actions(after))
    assert [action.id for action in taken + other] == [claimed.id]  # one replica takes it over
    winner = b if taken else a
    attempt = await winner.outbox.begin_attempt(claimed.id, after)
    # attempts == 2: so the send asks find_sent before posting again
    assert attempt is not None and attempt.attempts == 2
    await winner.outbox.complete_action(claimed.id, "ts-1", after)
    await a.outbox.complete_action(claimed.id, "ts-late", after)  # a late finisher changes nothing

    [done] = await round_actions(b, round_.id)
    assert (done.state, done.result_ref) == (ActionState.DONE, "ts-1")
    posted = await b.rounds.get_round(round_.id)
    assert posted is not None and posted.question_message == "ts-1"
    assert await a.outbox.due_actions(after + LEASE * 2) == []


async def test_an_event_is_handled_by_one_replica_only(
    replicas: tuple[PostgresStore, PostgresStore],
) -> None:
    a, b = replicas
    marks = await asyncio.gather(
        *(
            store.deliveries.mark_event_processed("slack", f"Ev{i}", T0)
            for i in range(50)
            for store in (a, b)
        )
    )
    assert all(marks[i] != marks[i + 1] for i in range(0, 100, 2))


async def test_a_claim_that_ran_out_before_its_send_began_is_sent_by_the_new_holder_only(
    replicas: tuple[PostgresStore, PostgresStore],
) -> None:
    """A replica claims a batch, and its lease on the last ones runs out while it is busy
    with the first; another replica takes those over. When the first one's turn comes it
    must not send them too (it had not begun, so nobody would ask find_sent)."""
    a, b = replicas
    await a_round_whose_question_is_due(a)
    [claimed] = await a.outbox.due_actions(T0)
    after = T0 + LEASE + timedelta(seconds=1)
    [taken] = await b.outbox.due_actions(after)
    assert taken.id == claimed.id
    attempt = await b.outbox.begin_attempt(taken.id, after)
    assert attempt is not None and attempt.attempts == 1
    assert await a.outbox.begin_attempt(claimed.id, after) is None  # a's turn: no longer its own
    await b.outbox.complete_action(taken.id, "ts-1", after)
    assert await a.outbox.begin_attempt(claimed.id, after + LEASE * 2) is None  # done: never again


async def test_a_claim_that_ran_out_does_not_put_off_the_send_of_the_new_holder(
    replicas: tuple[PostgresStore, PostgresStore],
) -> None:
    """A replica whose claim ran out reaches the action and the channel's pacing tells it
    to wait: it must not put the action off, nor release it, while another replica that
    took it over is sending it; a third pass would find it unclaimed and send it again."""
    a, b = replicas
    await a_round_whose_question_is_due(a)
    [claimed] = await a.outbox.due_actions(T0)
    after = T0 + LEASE + timedelta(seconds=1)
    [taken] = await b.outbox.due_actions(after)
    assert await b.outbox.begin_attempt(taken.id, after) is not None  # b is sending it
    await a.outbox.postpone_actions([claimed.id], after + timedelta(seconds=2), at=after)
    later = after + timedelta(seconds=3)
    assert await a.outbox.due_actions(later) == []  # b's claim still holds
    assert await b.outbox.next_due_after(after) == after + LEASE  # due again when b's lease ends


async def test_a_claim_that_ran_out_is_neither_retried_nor_failed_under_the_new_holder(
    replicas: tuple[PostgresStore, PostgresStore],
) -> None:
    """A replica whose claim ran out finishes a send that timed out or failed: its retry or
    failure must not release the action, nor fail it, while another replica that took it
    over is sending it; a third pass would find it unclaimed and send it again."""
    a, b = replicas
    round_ = await a_round_whose_question_is_due(a)
    [claimed] = await a.outbox.due_actions(T0)
    assert await a.outbox.begin_attempt(claimed.id, T0) is not None  # a starts sending, stalls
    after = T0 + LEASE + timedelta(seconds=1)
    [taken] = await b.outbox.due_actions(after)
    assert await b.outbox.begin_attempt(taken.id, after) is not None  # b is sending it

    await a.outbox.retry_action(claimed.id, "timed out", after + timedelta(seconds=2), at=after)
    await a.outbox.fail_action(claimed.id, "gave up", after)
    later = after + timedelta(seconds=3)
    assert await a.outbox.due_actions(later) == []  # b's claim still holds
    assert await b.outbox.next_due_after(after) == after + LEASE  # due again when b's lease ends
    [held] = await round_actions(b, round_.id)
    assert (held.state, held.last_error) == (ActionState.PENDING, None)

    await b.outbox.complete_action(taken.id, "ts-1", later)
    [done] = await round_actions(b, round_.id)
    assert (done.state, done.result_ref) == (ActionState.DONE, "ts-1")


async def test_a_replica_still_holding_its_claim_retries_and_fails_it(
    replicas: tuple[PostgresStore, PostgresStore],
) -> None:
    """The ownership check keeps a replica's own retries and failures working, also once
    its lease ran out when nobody took the action over."""
    a, b = replicas
    round_ = await a_round_whose_question_is_due(a)
    [claimed] = await a.outbox.due_actions(T0)
    assert await a.outbox.begin_attempt(claimed.id, T0) is not None
    retry_at = T0 + timedelta(seconds=5)
    await a.outbox.retry_action(claimed.id, "timed out", retry_at, at=T0)
    assert (
        await b.outbox.next_due_after(T0) == retry_at
    )  # released: due at its retry, not the lease
    [retried] = await b.outbox.due_actions(retry_at)  # anyone may take it now
    assert (retried.last_error, retried.next_attempt_at) == ("timed out", retry_at)

    late = retry_at + LEASE + timedelta(seconds=1)  # b's claim ran out, nobody took it
    await b.outbox.fail_action(retried.id, "gave up", late)
    [failed] = await round_actions(a, round_.id)
    assert (failed.state, failed.last_error) == (ActionState.FAILED, "gave up")
