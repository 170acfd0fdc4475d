"""The coach's store on both backends: a member's opt-out, one assessment per answer and
model however many processes record it, the cache that only a reply of the endpoint fills,
the day's usage, a card shown once, and a decision that moves the answer's quality points
in its own transaction."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from datetime import date, timedelta
from pathlib import Path

import pytest

from bot.coach.verification import VerifiedTick
from bot.coaching.store import AssessmentState, DecisionCounts, NewAssessment
from bot.store import Store
from tests.storage.backends import BACKENDS, open_store
from tests.storage.test_store import T0, draft, member, new_channel, new_round

TICKS = (VerifiedTick(1, "a ring passes each chunk twice"), VerifiedTick(3, "NVLink inside"))


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def an_answer(store: Store, name: str = "ann") -> tuple[int, int]:
    """A first answer before the reveal (15 points); (its id, its author)."""
    channel_id = await new_channel(store, f"C-{name}")
    round_ = await new_round(store, channel_id, T0)
    author = await member(store, name)
    recorded = await store.answers.record_answer(draft(round_, author, f"m-{name}"))
    assert recorded.answer_id is not None
    return recorded.answer_id, author


def assessed(
    answer_id: int,
    author: int,
    *,
    state: AssessmentState = AssessmentState.READY,
    key: str = "k1",
    tokens: int = 120,
) -> NewAssessment:
    ticks = TICKS if state is AssessmentState.READY else ()
    return NewAssessment(answer_id, author, "m", key, 5, ticks, 2, tokens, state, T0)


async def test_an_opt_out_is_kept_once_and_taken_back(store: Store) -> None:
    ann = await member(store, "ann")
    assert not await store.coach.refuses_coach(ann)
    assert await store.coach.refuse_coach(ann, T0)
    assert not await store.coach.refuse_coach(ann, T0)
    assert await store.coach.refuses_coach(ann)
    assert await store.coach.allow_coach(ann)
    assert not await store.coach.allow_coach(ann)
    assert not await store.coach.refuses_coach(ann)


async def test_one_assessment_per_answer_and_model_whoever_records_it(store: Store) -> None:
    answer_id, ann = await an_answer(store)
    first, second = await asyncio.gather(
        store.coach.record_assessment(
            assessed(answer_id, ann), platform="slack", workspace="T1", requests=1
        ),
        store.coach.record_assessment(
            assessed(answer_id, ann, tokens=999), platform="slack", workspace="T1", requests=1
        ),
    )

    assert first == second and first.ticks == TICKS and first.dropped == 2
    usage = await store.coach.usage("slack", "T1", ann, T0.date())
    # only the assessment that was stored is counted
    assert usage.workspace_requests == usage.member_requests == 1
    assert usage.workspace_tokens == first.tokens
    assert await store.coach.assessment(answer_id, "m") == first
    assert await store.coach.assessment(answer_id, "another-model") is None


async def test_only_the_endpoints_replies_fill_the_cache(store: Store) -> None:
    answer_id, ann = await an_answer(store)
    other_id, bob = await an_answer(store, "bob")
    await store.coach.record_assessment(
        assessed(answer_id, ann, state=AssessmentState.UNAVAILABLE, key="same"),
        platform="slack",
        workspace="T1",
        requests=0,
    )
    assert await store.coach.cached_ticks("same") is None

    await store.coach.record_assessment(
        assessed(other_id, bob, key="same"), platform="slack", workspace="T1", requests=1
    )
    assert await store.coach.cached_ticks("same") == (TICKS, 2)


async def test_a_ready_card_is_shown_once(store: Store) -> None:
    answer_id, ann = await an_answer(store)
    stored = await store.coach.record_assessment(
        assessed(answer_id, ann), platform="slack", workspace="T1", requests=1
    )
    round_id = (await store.coach.answer_to_assess(answer_id)).round_id  # type: ignore[union-attr]
    assert [a.id for a in await store.coach.ready_of_round(round_id)] == [stored.id]

    assert await store.coach.mark_shown(stored.id)
    assert not await store.coach.mark_shown(stored.id)
    assert await store.coach.ready_of_round(round_id) == []


async def test_a_decision_moves_the_quality_points_with_it(store: Store) -> None:
    answer_id, ann = await an_answer(store)
    stored = await store.coach.record_assessment(
        assessed(answer_id, ann), platform="slack", workspace="T1", requests=1
    )

    async def points() -> int:
        record = await store.answers.answer_by_id(answer_id)
        assert record is not None
        return record.points

    before = await points()
    await store.coach.decide(stored.id, AssessmentState.ACCEPTED, (1, 3), T0)
    accepted = await points()
    await store.coach.decide(stored.id, AssessmentState.EDITED, (1,), T0)
    edited = await points()
    await store.coach.decide(stored.id, AssessmentState.DISMISSED, (), T0)

    assert before < edited < accepted
    assert await points() == before
    decided = await store.coach.assessment_by_id(stored.id)
    assert decided is not None and decided.state is AssessmentState.DISMISSED


async def test_a_months_usage_adds_its_days(store: Store) -> None:
    for day, name in ((0, "ann"), (1, "bob")):
        answer_id, author = await an_answer(store, name)
        new = dataclasses.replace(assessed(answer_id, author), at=T0 + timedelta(days=day))
        await store.coach.record_assessment(new, platform="slack", workspace="T1", requests=1)

    assert await store.coach.month_usage("slack", "T1", date(2026, 3, 1)) == (2, 240)
    assert await store.coach.month_usage("slack", "T2", date(2026, 3, 1)) == (0, 0)
    assert await store.coach.month_usage("slack", "T1", date(2026, 4, 1)) == (0, 0)


async def test_decisions_are_counted_per_channel_from_a_moment_on(store: Store) -> None:
    channel_id = await new_channel(store, "C-decided")
    decisions = (
        ("ann", AssessmentState.ACCEPTED, T0),
        ("bob", AssessmentState.ACCEPTED, T0),
        ("carol", AssessmentState.EDITED, T0),
        ("dan", AssessmentState.DISMISSED, T0),
        ("eve", AssessmentState.ACCEPTED, T0 - timedelta(days=40)),  # before the moment
    )
    for day, (name, state, at) in enumerate(decisions):
        round_ = await new_round(store, channel_id, T0 + timedelta(days=day))
        author = await member(store, name)
        recorded = await store.answers.record_answer(draft(round_, author, f"m-{name}"))
        assert recorded.answer_id is not None
        stored = await store.coach.record_assessment(
            assessed(recorded.answer_id, author, key=f"k-{name}"),
            platform="slack",
            workspace="T1",
            requests=1,
        )
        await store.coach.decide(stored.id, state, (1,), at)
    await store.coach.record_assessment(  # read, not decided: not counted
        assessed((await an_answer(store, "fay"))[0], await member(store, "fay"), key="k-fay"),
        platform="slack",
        workspace="T1",
        requests=1,
    )

    counted = await store.coach.decision_counts(channel_id, T0 - timedelta(days=1))

    assert counted == DecisionCounts(accepted=2, edited=1, dismissed=1, members=4)
    assert counted.decided == 4
    assert await store.coach.decision_counts(channel_id + 99, T0) == DecisionCounts(0, 0, 0, 0)


async def test_a_members_export_holds_their_coach_rows_and_erasure_takes_them(
    store: Store,
) -> None:
    answer_id, ann = await an_answer(store)
    other_id, bob = await an_answer(store, "bob")
    for answer, author in ((answer_id, ann), (other_id, bob)):
        await store.coach.record_assessment(
            assessed(answer, author), platform="slack", workspace="T1", requests=1
        )
    await store.coach.refuse_coach(ann, T0)

    exported = await store.member_data.member_tables(ann)
    assert [row["answer_id"] for row in exported["coach_assessments"]] == [answer_id]
    assert len(exported["coach_opt_outs"]) == 1
    assert len(exported["coach_member_usage"]) == 1

    erased = await store.member_data.erase_member(ann, T0)

    assert erased.rows["coach_assessments"] == 1
    assert await store.coach.assessment(answer_id, "m") is None
    assert not await store.coach.refuses_coach(ann)
    assert await store.coach.assessment(other_id, "m") is not None  # bob's stays
