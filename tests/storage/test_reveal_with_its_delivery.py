"""A reveal by its question's message, its event id and a vote's, each in the transaction
of its effect, on both backends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.kernel.errors import DuplicateDelivery
from bot.kernel.models import (
    ActionKind,
    ActionState,
    AnswerDraft,
    Delivery,
    OutboxDraft,
    action_key,
)
from storage.sqlite.store import SqliteStore
from tests.storage.backends import BACKENDS, open_store
from tests.storage.test_store import T0, member, new_channel, new_round
from tests.store_reads import round_actions

REVEAL = (ActionKind.FOLLOW_UPS, ActionKind.OUTLINE)


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened  # type: ignore[misc]  # both backends, typed as SQLite's for brevity


async def _posted_round(store: SqliteStore, channel_id: int) -> int:
    """A round whose question and thread are out; its hint is still pending."""
    round_ = await new_round(store, channel_id)
    question, thread, _ = await store.outbox.due_actions(T0)
    await store.outbox.complete_action(question.id, "msg-1", T0)
    await store.outbox.complete_action(thread.id, "thread-1", T0)
    return round_.id


async def test_a_reveal_by_message_returns_the_round_and_its_pending_actions_in_order(
    store: SqliteStore,
) -> None:
    channel_id = await new_channel(store)
    round_id = await _posted_round(store, channel_id)
    at = T0 + timedelta(minutes=5)

    revealed = await store.rounds.reveal_round_by_message(
        channel_id, "msg-1", at, REVEAL, delivery=Delivery("slack", "ev-1")
    )

    assert revealed is not None
    assert revealed.round.id == round_id and revealed.round.revealed_at == at
    assert (revealed.round.question_message, revealed.round.thread) == ("msg-1", "thread-1")
    assert [(a.kind, a.key, a.state) for a in revealed.pending] == [
        (ActionKind.HINT, action_key(round_id, ActionKind.HINT), ActionState.PENDING),
        (ActionKind.FOLLOW_UPS, action_key(round_id, ActionKind.FOLLOW_UPS), ActionState.PENDING),
        (ActionKind.OUTLINE, action_key(round_id, ActionKind.OUTLINE), ActionState.PENDING),
    ]
    assert await store.deliveries.event_processed("slack", "ev-1")


async def test_a_redelivered_reveal_is_refused_and_changes_nothing(store: SqliteStore) -> None:
    channel_id = await new_channel(store)
    await _posted_round(store, channel_id)
    delivery = Delivery("slack", "ev-1")
    assert await store.rounds.reveal_round_by_message(
        channel_id, "msg-1", T0, REVEAL, delivery=delivery
    )
    due_before = await store.outbox.due_actions(T0 + timedelta(days=1))

    with pytest.raises(DuplicateDelivery, match="ev-1"):
        await store.rounds.reveal_round_by_message(
            channel_id, "msg-1", T0, REVEAL, delivery=delivery
        )

    assert await store.outbox.due_actions(T0 + timedelta(days=1)) == due_before


async def test_a_reveal_that_changes_nothing_keeps_no_event_id(store: SqliteStore) -> None:
    channel_id = await new_channel(store)
    round_id = await _posted_round(store, channel_id)
    assert await store.rounds.reveal_round(
        round_id, T0, [OutboxDraft(round_id, k, action_key(round_id, k)) for k in REVEAL]
    )

    late = Delivery("slack", "ev-late")
    assert (
        await store.rounds.reveal_round_by_message(channel_id, "msg-1", T0, REVEAL, delivery=late)
        is None
    )
    stray = Delivery("slack", "ev-stray")
    assert (
        await store.rounds.reveal_round_by_message(channel_id, "nope", T0, REVEAL, delivery=stray)
        is None
    )

    assert not await store.deliveries.event_processed("slack", "ev-late")
    assert not await store.deliveries.event_processed("slack", "ev-stray")
    assert await store.rounds.reveal_round(round_id, T0, []) is None


async def test_a_reveal_reactor_and_a_vote_record_their_event_only_when_they_count(
    store: SqliteStore,
) -> None:
    channel_id = await new_channel(store)
    round_id = await _posted_round(store, channel_id)
    ann, bob = await member(store, "ann"), await member(store, "bob")
    first = Delivery("slack", "ev-react-1")
    assert await store.rounds.add_reveal_reactor(round_id, ann, at=T0, delivery=first) == 1
    again = Delivery("slack", "ev-react-2")  # the same member reacting once more
    assert await store.rounds.add_reveal_reactor(round_id, ann, at=T0, delivery=again) == 1
    with pytest.raises(DuplicateDelivery):
        await store.rounds.add_reveal_reactor(round_id, bob, at=T0, delivery=first)
    assert await store.deliveries.event_processed("slack", "ev-react-1")
    assert not await store.deliveries.event_processed("slack", "ev-react-2")

    answer = await store.answers.record_answer(
        AnswerDraft(
            event_id="ev-answer",
            platform="slack",
            round_id=round_id,
            channel_id=channel_id,
            member_id=ann,
            message_id="m-ann",
            text="an answer",
            at=T0,
            points_for_answer=10,
            bonus_before_reveal=5,
        )
    )
    assert answer.answer_id is not None
    vote = Delivery("slack", "ev-vote")
    assert await store.answers.record_vote(
        answer.answer_id, bob, T0, per_vote=1, max_votes=3, delivery=vote
    )
    with pytest.raises(DuplicateDelivery):
        await store.answers.record_vote(
            answer.answer_id, bob, T0, per_vote=1, max_votes=3, delivery=vote
        )
    repeat = Delivery("slack", "ev-vote-again")
    assert not await store.answers.record_vote(
        answer.answer_id, bob, T0, per_vote=1, max_votes=3, delivery=repeat
    )
    assert not await store.deliveries.event_processed("slack", "ev-vote-again")
    [scored] = await store.answers.round_answers(round_id)
    assert scored.votes == 1


async def test_a_skipped_round_is_never_revealed_even_after_a_later_round(
    store: SqliteStore,
) -> None:
    channel_id = await new_channel(store)
    round_id = await _posted_round(store, channel_id)
    assert await store.rounds.skip_round(round_id, T0 + timedelta(minutes=1))  # /quiz skip
    drafts = [OutboxDraft(round_id, k, action_key(round_id, k)) for k in REVEAL]

    async def reveals(event_id: str) -> list[object]:
        delivery = Delivery("slack", event_id)
        return [
            await store.rounds.reveal_round_by_message(
                channel_id, "msg-1", T0, REVEAL, delivery=delivery
            ),
            await store.rounds.reveal_round(round_id, T0, drafts),
        ]

    assert await reveals("ev-skipped") == [None, None]
    await new_round(store, channel_id, T0 + timedelta(days=1))
    assert await reveals("ev-later") == [None, None]

    assert not await store.deliveries.event_processed("slack", "ev-skipped")
    assert not await store.deliveries.event_processed("slack", "ev-later")
    skipped = await store.rounds.get_round(round_id)
    assert skipped is not None and skipped.revealed_at is None
    assert skipped.skipped_at == skipped.closed_at == T0 + timedelta(minutes=1)


async def test_skipping_a_revealed_round_closes_it_without_marking_it_skipped(
    store: SqliteStore,
) -> None:
    channel_id = await new_channel(store)
    round_id = await _posted_round(store, channel_id)
    assert await store.rounds.reveal_round(round_id, T0, [])

    assert await store.rounds.skip_round(round_id, T0 + timedelta(minutes=1))

    closed = await store.rounds.get_round(round_id)
    assert closed is not None and closed.state == "closed" and closed.skipped_at is None


async def test_a_round_closed_by_the_next_one_is_revealed_by_it_and_not_again(
    store: SqliteStore,
) -> None:
    channel_id = await new_channel(store)
    round_id = await _posted_round(store, channel_id)
    await new_round(store, channel_id, T0 + timedelta(days=1))  # closes the first, revealing it

    closed = await store.rounds.get_round(round_id)
    assert closed is not None and closed.state == "closed" and closed.revealed_at is not None
    later = Delivery("slack", "ev-later")
    again = await store.rounds.reveal_round_by_message(
        channel_id, "msg-1", T0, REVEAL, delivery=later
    )
    assert again is None
    outlines = [a for a in await round_actions(store, round_id) if a.kind is ActionKind.OUTLINE]
    assert len(outlines) == 1
