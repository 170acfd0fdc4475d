"""An answer's quality points on both backends: kept in step with the ticks of its reviews
by anyone but its author (their union), in the review's own transaction, also when
reviews are written at once (PostgreSQL runs them side by side: each must see the others'
ticks); votes keep them; the coach's accepted ticks, once stored, join the union."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.reviews.store import ReviewDraft
from bot.store import Store
from storage.sql import quality
from tests.storage.backends import BACKENDS, open_store
from tests.storage.test_store import T0, draft, member, new_channel, new_round

KEY_POINTS = 5


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def answered(store: Store) -> tuple[int, int, int, int]:
    """Ann's first answer, before the reveal (15 points); (channel, round, ann, answer)."""
    channel_id = await new_channel(store)
    round_ = await new_round(store, channel_id, T0)
    ann = await member(store, "ann")
    recorded = await store.answers.record_answer(draft(round_, ann, "m1"))
    assert recorded.answer_id is not None
    return channel_id, round_.id, ann, recorded.answer_id


async def review(
    store: Store, answer: tuple[int, int, int, int], reviewer: int, covered: tuple[int, ...] | None
) -> None:
    channel_id, round_id, _, answer_id = answer
    await store.reviews.record_review(
        ReviewDraft(answer_id, round_id, channel_id, reviewer, 3, covered, "", T0),
        points=2,
        cap=3,
        key_points=KEY_POINTS,
    )


async def ann_points(store: Store, answer: tuple[int, int, int, int]) -> int:
    """The points of Ann's answer (those its reviewers earned are theirs)."""
    [recorded] = await store.answers.round_answers(answer[1])
    return int(recorded.points)


async def test_reviews_ticks_add_their_union(store: Store) -> None:
    answer = await answered(store)
    await review(store, answer, await member(store, "bob"), (1, 2))
    assert await ann_points(store, answer) == 15 + 6
    await review(store, answer, await member(store, "cat"), (2, 3, 4))
    assert await ann_points(store, answer) == 15 + 12
    [row] = [
        r for r in await store.reports.leaderboard(answer[0], None) if r.member_id == answer[2]
    ]
    assert (row.points, row.quality_points) == (27, 12)


async def test_a_replaced_review_replaces_its_ticks_and_one_without_ticks_adds_none(
    store: Store,
) -> None:
    answer = await answered(store)
    bob = await member(store, "bob")
    await review(store, answer, bob, (1, 2, 3, 4, 5))
    await review(store, answer, bob, (1,))
    assert await ann_points(store, answer) == 15 + 3
    await review(store, answer, bob, None)
    assert await ann_points(store, answer) == 15


async def test_a_review_by_the_author_counts_for_nothing(store: Store) -> None:
    answer = await answered(store)
    await review(store, answer, answer[2], (1, 2, 3, 4, 5))
    assert await ann_points(store, answer) == 15


async def test_removing_a_review_takes_its_ticks_away(store: Store) -> None:
    answer = await answered(store)
    bob = await member(store, "bob")
    await review(store, answer, bob, (1, 2, 3, 4, 5))
    assert await store.reviews.remove_review(answer[3], bob, KEY_POINTS)
    assert await ann_points(store, answer) == 15


async def test_votes_and_quality_add_up_in_either_order(store: Store) -> None:
    answer = await answered(store)
    bob, cat = await member(store, "bob"), await member(store, "cat")
    await store.answers.record_vote(answer[3], bob, T0, per_vote=1, max_votes=5)
    await review(store, answer, cat, (1, 2, 3, 4))
    await store.answers.record_vote(answer[3], cat, T0, per_vote=1, max_votes=5)
    assert await ann_points(store, answer) == 15 + 2 + 12


async def test_reviews_written_at_once_each_count(store: Store) -> None:
    answer = await answered(store)
    reviewers = [await member(store, name) for name in ("bob", "cat", "dan", "eve", "fay")]
    await asyncio.gather(
        *(review(store, answer, r, (n,)) for n, r in enumerate(reviewers, start=1))
    )
    assert await ann_points(store, answer) == 30


async def test_the_coachs_accepted_ticks_join_the_union(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook the coach fills: its accepted ticks count with the reviewers' ticks."""

    async def accepted(session: object, answer_id: int) -> frozenset[int]:
        return frozenset({4, 5})

    monkeypatch.setattr(quality, "accepted_coach_ticks", accepted)
    answer = await answered(store)
    await review(store, answer, await member(store, "bob"), (1, 2, 5))
    assert await ann_points(store, answer) == 15 + 12


async def test_a_reviewer_who_leaves_takes_no_quality_points_away(store: Store) -> None:
    answer = await answered(store)
    bob, cat = await member(store, "bob"), await member(store, "cat")
    await review(store, answer, bob, (1, 2, 3))

    await store.member_data.erase_member(bob, T0)

    assert await ann_points(store, answer) == 15 + 9
    await review(store, answer, cat, (3, 4))  # a later review adds to what bob judged
    assert await ann_points(store, answer) == 15 + 12
    assert await store.reviews.remove_review(answer[3], cat, KEY_POINTS)
    assert await ann_points(store, answer) == 15 + 9
