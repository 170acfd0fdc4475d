"""A member who changes a round's grade later corrects that review: the cards are replayed
as if the corrected grade had been given when the first one was, on both backends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fsrs import Card, Rating

from bot.kernel.grades import Grade
from bot.kernel.models import ActionKind, ChannelSettings
from bot.kernel.refs import ChannelRef, MemberRef
from bot.learning import memory_model
from bot.learning.store import GradeDraft
from bot.store import Store
from questions.catalog import QuestionKey
from tests.storage.backends import BACKENDS, open_store

AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def record(store: Store, draft: GradeDraft) -> None:
    await store.learning.record_grade(
        draft, member_card=memory_model.member_card, channel_card=memory_model.channel_card
    )


async def test_a_grade_changed_after_a_later_review_replays_at_the_original_time(
    store: Store,
) -> None:
    ids = await store.rounds.sync_questions([QuestionKey("p", "q1", "gpu", "h1")])
    question = ids[("p", "q1")]
    channel = await store.channels.create_channel(
        ChannelSettings(0, ChannelRef("fake", "team", "C1"), "UTC")
    )
    round_ = await store.rounds.create_round(
        channel.id,
        lambda _: question,
        AT,
        scheduled=True,
        created_at=AT,
        actions=[ActionKind.QUESTION],
    )
    assert round_ is not None
    alice = await store.members.member_id(MemberRef("fake", "team", "U1", "Alice"))
    bob = await store.members.member_id(MemberRef("fake", "team", "U2", "Bob"))
    first = AT + timedelta(hours=2)
    practice = AT + timedelta(days=3)
    changed = AT + timedelta(days=5)
    await record(store, GradeDraft(alice, question, Grade.MISSED, first, round_.id, channel.id))
    await record(
        store,
        GradeDraft(bob, question, Grade.GOOD, first + timedelta(hours=1), round_.id, channel.id),
    )
    await record(store, GradeDraft(alice, question, Grade.GOOD, practice))  # private practice
    await record(store, GradeDraft(alice, question, Grade.NAILED, changed, round_.id, channel.id))

    # Alice's log in order, with the corrected grade where the first one was given.
    fsrs = memory_model.SCHEDULER
    expected, _ = fsrs.review_card(Card(card_id=question, due=first), Rating.Easy, first)
    expected, _ = fsrs.review_card(expected, Rating.Good, practice)
    card = (await store.learning.member_cards(alice))[question]
    assert (card.stability, card.difficulty, card.due, card.last_review, card.reviews) == (
        expected.stability,
        expected.difficulty,
        expected.due,
        practice,
        2,
    )
    # The channel's review of the round is still at its first grade, with the new mean.
    team, _ = fsrs.review_card(Card(card_id=question, due=first), Rating.Easy, first)
    channel_card = (await store.learning.channel_cards(channel.id))[question]
    assert (channel_card.stability, channel_card.last_review, channel_card.due) == (
        team.stability,
        first,
        team.due,
    )
    # The log keeps the replaced grade and when it was replaced.
    log = await store.learning.grade_log(alice)
    assert [(g, at, replaced) for _, g, at, replaced in log] == [
        (Grade.MISSED, first, True),
        (Grade.NAILED, first, False),
        (Grade.GOOD, practice, False),
    ]
