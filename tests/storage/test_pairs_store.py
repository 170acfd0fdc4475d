"""The pairing aggregate on both backends: opt-ins and skips, pairing slots, a pairing
recorded once per channel and week with its outbox action, its groups stored once,
briefs kept once, ratings once per interviewer, and the counts /quiz me shows."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.kernel.grades import Grade
from bot.kernel.models import ActionKind, ChannelSettings, OutboxDraft
from bot.kernel.pair_facts import PairCounts, PairRating
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.render import Card
from bot.learning import memory_model
from bot.learning.store import GradeDraft, RatedAlready
from bot.pairing.store import PairingDue, PairMember
from bot.store import Store
from questions.catalog import QuestionKey
from tests.storage.backends import BACKENDS, open_store

AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
QUIZ = ChannelRef("fake", "team", "C1", "#quiz")


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def setup(store: Store) -> tuple[int, list[int]]:
    channel = await store.channels.create_channel(ChannelSettings(0, QUIZ, "UTC"))
    members = [
        await store.members.member_id(MemberRef("fake", "team", f"U{i}", f"M{i}")) for i in range(4)
    ]
    return channel.id, members


async def test_opt_in_topics_skip_and_opt_out(store: Store) -> None:
    channel, (ann, bob, *_) = await setup(store)
    assert await store.pairs.pair_member(channel, ann) is None
    await store.pairs.opt_in(
        PairMember(channel, ann, "U0", "M0", "D-U0", ("gpu", "rdma"), "Europe/Berlin", None), AT
    )
    await store.pairs.opt_in(PairMember(channel, bob, "U1", "M1", None, (), "UTC", None), AT)
    assert await store.pairs.skip_week(channel, ann, "2026-W49")
    shown = await store.pairs.pair_member(channel, ann)
    assert shown == PairMember(
        channel, ann, "U0", "M0", "D-U0", ("gpu", "rdma"), "Europe/Berlin", "2026-W49"
    )
    # opting in again replaces the topics and clears the skip
    await store.pairs.opt_in(
        PairMember(channel, ann, "U0", "M0", "D-U0", ("k8s",), "Europe/Berlin", None), AT
    )
    assert [
        (m.member_id, m.topics, m.skip_week) for m in await store.pairs.pair_members(channel)
    ] == [
        (ann, ("k8s",), None),
        (bob, (), None),
    ]
    assert await store.pairs.opt_out(channel, ann)
    assert not await store.pairs.opt_out(channel, ann)
    assert not await store.pairs.skip_week(channel, ann, "2026-W49")
    assert [m.member_id for m in await store.pairs.pair_members(channel)] == [bob]


async def test_pair_schedules(store: Store) -> None:
    channel, _ = await setup(store)
    assert await store.pairs.pair_schedules() == {}
    assert await store.pairs.pair_schedule(channel) is None
    await store.pairs.set_pair_schedule(channel, True, "tue 11:00")
    assert await store.pairs.pair_schedule(channel) == (True, "tue 11:00")
    await store.pairs.set_pair_schedule(channel, False, None)
    assert await store.pairs.pair_schedules() == {channel: (False, None)}
    assert await store.pairs.pair_schedule(channel) == (False, None)


async def test_a_pairing_is_recorded_once_with_its_groups_briefs_and_ratings(
    store: Store,
) -> None:
    channel, (ann, bob, cat, dan) = await setup(store)
    key = f"pair:{channel}:2026-W49"
    action = OutboxDraft(None, ActionKind.PAIRING, key, QUIZ, Card("Pairing"))
    assert await store.pairs.pairing_groups(key) is None
    assert await store.pairs.record_pairing(channel, "2026-W49", key, action, AT)
    assert not await store.pairs.record_pairing(channel, "2026-W49", key, action, AT)
    due = [a for a in await store.outbox.due_actions(AT) if a.key == key]
    assert len(due) == 1 and due[0].kind is ActionKind.PAIRING
    assert await store.pairs.pairing_groups(key) == []
    groups = await store.pairs.store_groups(key, [(ann, bob), (cat, dan)], AT)
    again = await store.pairs.store_groups(key, [(ann, cat), (bob, dan)], AT)
    assert [g.members for g in groups] == [g.members for g in again] == [(ann, bob), (cat, dan)]
    await store.pairs.set_conversation(groups[0].id, ChannelRef("fake", "team", "G1"))
    stored = await store.pairs.pairing_groups(key)
    assert stored is not None and stored[0].conversation is not None
    assert stored[0].conversation.channel_id == "G1" and stored[1].conversation is None
    assert await store.pairs.past_partners(channel) == [(ann, bob), (cat, dan)]
    assert [g.members for g in await store.pairs.member_groups(channel, cat)] == [(cat, dan)]

    ids = await store.rounds.sync_questions([QuestionKey("p", "q1", "gpu", "h1")])
    question = ids[("p", "q1")]
    await store.pairs.set_brief(groups[0].id, bob, ann, question)
    assert await store.pairs.brief_question(groups[0].id, bob) == question
    assert await store.pairs.brief_question(groups[0].id, ann) is None
    rating = PairRating(groups[0].id, ann, bob, question, 3, (1, 2))
    await graded_with(store, rating)
    with pytest.raises(RatedAlready):
        await graded_with(store, PairRating(groups[0].id, ann, bob, question, 1, None))
    assert await store.pairs.ratings(groups[0].id) == [rating]
    assert await store.pairs.pair_counts(ann) == PairCounts(given=1, taken=0)
    assert await store.pairs.pair_counts(bob) == PairCounts(given=0, taken=1)


async def graded_with(store: Store, rating: PairRating) -> None:
    """The candidate's grade from ``rating``, recorded with it (as `/quiz pair rate` does)."""
    draft = GradeDraft(rating.candidate_id, rating.question_id, Grade.GOOD, AT, rating=rating)
    await store.learning.record_grade(
        draft, member_card=memory_model.member_card, channel_card=memory_model.channel_card
    )


async def test_many_pairings_are_recorded_together_each_once(store: Store) -> None:
    channels = [
        (await store.channels.create_channel(ChannelSettings(0, ref, "UTC"))).id
        for ref in (ChannelRef("fake", "team", f"C{n}", f"#quiz{n}") for n in range(2, 5))
    ]
    due = [
        PairingDue(
            c,
            "2026-W49",
            f"pair:{c}:2026-W49",
            OutboxDraft(None, ActionKind.PAIRING, f"pair:{c}:2026-W49", QUIZ),
        )
        for c in channels
    ]
    first = due[0]
    assert await store.pairs.record_pairing(
        first.channel_id, first.week, first.key, first.action, AT
    )
    # the one recorded already is left as it is; the others are recorded with their action
    assert await store.pairs.record_pairings(due, AT) == {p.key for p in due[1:]}
    assert await store.pairs.record_pairings(due, AT) == set()
    assert await store.pairs.record_pairings([], AT) == set()
    queued = [a.key for a in await store.outbox.due_actions(AT) if a.kind is ActionKind.PAIRING]
    assert sorted(queued) == sorted(p.key for p in due)
    assert [await store.pairs.pairing_groups(p.key) for p in due] == [[], [], []]
