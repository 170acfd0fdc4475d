"""The review points of a round are capped per reviewer on both backends, also when the
same member's reviews are written at the same instant (PostgreSQL runs them side by side;
each must see the others' points) and when one review is written twice at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.reviews.store import ReviewDraft
from bot.store import Store
from tests.storage.backends import BACKENDS, open_store
from tests.storage.test_store import T0, draft, member, new_channel, new_round

CAP = 3
ANSWERS = 8


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def answers_to_review(store: Store) -> tuple[int, int, int, list[int]]:
    """A round with ``ANSWERS`` answers of as many members; (channel, round, reviewer,
    answer ids)."""
    channel_id = await new_channel(store)
    round_ = await new_round(store, channel_id, T0)
    reviewer = await member(store, "rita")
    answer_ids = []
    for n in range(ANSWERS):
        author = await member(store, f"author{n}")
        recorded = await store.answers.record_answer(draft(round_, author, f"answer {n}"))
        assert recorded.answer_id is not None
        answer_ids.append(recorded.answer_id)
    return channel_id, round_.id, reviewer, answer_ids


def review(channel_id: int, round_id: int, reviewer: int, answer_id: int) -> ReviewDraft:
    return ReviewDraft(answer_id, round_id, channel_id, reviewer, 3, None, "", T0)


async def test_reviews_written_at_once_earn_points_up_to_the_cap(store: Store) -> None:
    channel_id, round_id, reviewer, answer_ids = await answers_to_review(store)
    results = await asyncio.gather(
        *(
            store.reviews.record_review(
                review(channel_id, round_id, reviewer, a), points=2, cap=CAP, key_points=0
            )
            for a in answer_ids
        )
    )
    rewarded = [r for r in results if r.review.points > 0]
    assert len(rewarded) == CAP
    assert all(not r.replaced for r in results)


async def test_one_review_written_twice_at_once_is_one_review(store: Store) -> None:
    channel_id, round_id, reviewer, answer_ids = await answers_to_review(store)
    first, second = await asyncio.gather(
        *(
            store.reviews.record_review(
                review(channel_id, round_id, reviewer, answer_ids[0]),
                points=2,
                cap=CAP,
                key_points=0,
            )
            for _ in range(2)
        )
    )
    assert sorted([first.replaced, second.replaced]) == [False, True]
    assert len(await store.reviews.answer_reviews(answer_ids[0])) == 1
