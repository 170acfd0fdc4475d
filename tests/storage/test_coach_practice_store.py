"""The coach's practice readings on both backends: the answer kept once per session and
model, a reading recorded once (its spending with it), its probe, the member's probe
opt-out, and whether the workspace has the coach on anywhere."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.coach.verification import VerifiedTick
from bot.coaching.practice_store import PracticeAnswer, ReadingOutcome, ReadingState
from bot.kernel.refs import ChannelRef
from bot.practice.store import PracticeDraft
from bot.store import Store
from tests.storage.backends import BACKENDS, open_store
from tests.storage.test_store import T0, member, new_channel, new_round

TICKS = (VerifiedTick(1, "a ring passes each chunk twice"),)


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def a_session(store: Store) -> tuple[int, int]:
    """Ann's practice session; (its id, ann)."""
    channel_id = await new_channel(store)
    round_ = await new_round(store, channel_id, T0)
    ann = await member(store, "ann")
    direct = ChannelRef("slack", "T1", "D-ann")
    session = await store.practice.start_session(
        PracticeDraft(ann, direct, round_.question_id, None, T0)
    )
    assert session is not None
    return session.id, ann


async def test_a_practice_answer_is_kept_once_and_read_once(store: Store) -> None:
    session_id, ann = await a_session(store)
    answer = PracticeAnswer(session_id, ann, "m", "a ring passes each chunk twice", T0)
    reading_id = await store.coach.queue_practice_reading(answer)
    assert reading_id is not None
    assert await store.coach.queue_practice_reading(answer) is None  # redelivered

    read = ReadingOutcome(ReadingState.READY, T0, "key", 3, TICKS, 1, 120)
    first = await store.coach.record_practice_reading(reading_id, read, requests=1)
    again = await store.coach.record_practice_reading(
        reading_id, dataclasses.replace(read, tokens=999), requests=1
    )

    assert first == again and first is not None
    assert first.state is ReadingState.READY and first.ticks == TICKS
    assert first.text == "a ring passes each chunk twice" and first.direct.channel_id == "D-ann"
    usage = await store.coach.usage("slack", "T1", ann, T0.date())
    assert (usage.member_requests, usage.workspace_tokens) == (1, 120)
    assert await store.coach.cached_ticks("key") == (TICKS, 1)
    assert await store.coach.mark_practice_shown(reading_id)
    assert not await store.coach.mark_practice_shown(reading_id)


async def test_the_probe_and_its_opt_out(store: Store) -> None:
    session_id, ann = await a_session(store)
    answer = PracticeAnswer(session_id, ann, "m", "an answer", T0)
    reading_id = await store.coach.queue_practice_reading(answer)
    assert reading_id is not None

    await store.coach.record_practice_probe(reading_id, "Why?", tokens=30, requests=1, at=T0)

    reading = await store.coach.practice_reading_of_session(session_id, "m")
    assert reading is not None and reading.probe == "Why?"
    assert (await store.coach.usage("slack", "T1", ann, T0.date())).workspace_tokens == 30
    assert not await store.coach.refuses_probe(ann)
    await store.coach.set_probe(ann, False, T0)
    await store.coach.set_probe(ann, False, T0)
    assert await store.coach.refuses_probe(ann)
    await store.coach.set_probe(ann, True, T0)
    assert not await store.coach.refuses_probe(ann)


async def test_the_coach_is_on_for_a_member_where_a_channel_of_their_workspace_has_it(
    store: Store,
) -> None:
    channel_id = await new_channel(store)
    ann = await member(store, "ann")
    assert not await store.coach.coach_on_for(ann)
    channel = await store.channels.get_channel_by_id(channel_id)
    assert channel is not None
    await store.channels.update_channel(channel, dataclasses.replace(channel, coach=True))
    assert await store.coach.coach_on_for(ann)


async def a_shown_reading(store: Store) -> int:
    session_id, ann = await a_session(store)
    answer = PracticeAnswer(session_id, ann, "m", "a ring passes each chunk twice", T0)
    reading_id = await store.coach.queue_practice_reading(answer)
    assert reading_id is not None
    read = ReadingOutcome(ReadingState.READY, T0, "key", 3, TICKS, 0, 120)
    await store.coach.record_practice_reading(reading_id, read, requests=1)
    assert await store.coach.mark_practice_shown(reading_id)
    return reading_id


@pytest.mark.parametrize(
    "decision", [ReadingState.ACCEPTED, ReadingState.EDITED, ReadingState.DISMISSED]
)
async def test_a_shown_practice_card_is_decided_once(store: Store, decision: ReadingState) -> None:
    reading_id = await a_shown_reading(store)

    assert await store.coach.decide_practice_reading(reading_id, decision, T0)
    assert not await store.coach.decide_practice_reading(reading_id, ReadingState.ACCEPTED, T0)

    decided = await store.coach.practice_reading(reading_id)
    assert decided is not None and decided.state is decision
    assert decided.ticks == TICKS  # what the coach read is kept with the decision


async def test_a_card_not_shown_yet_cannot_be_decided(store: Store) -> None:
    session_id, ann = await a_session(store)
    answer = PracticeAnswer(session_id, ann, "m", "a ring passes each chunk twice", T0)
    reading_id = await store.coach.queue_practice_reading(answer)
    assert reading_id is not None

    assert not await store.coach.decide_practice_reading(reading_id, ReadingState.ACCEPTED, T0)
    pending = await store.coach.practice_reading(reading_id)
    assert pending is not None and pending.state is ReadingState.PENDING


async def test_only_a_decision_is_recorded_as_one(store: Store) -> None:
    reading_id = await a_shown_reading(store)

    with pytest.raises(ValueError, match="ready is not a decision"):
        await store.coach.decide_practice_reading(reading_id, ReadingState.READY, T0)
