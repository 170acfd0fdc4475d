"""``/quiz pair`` checks what it is given before it acts, on both backends: an unknown
topic is refused as ``/quiz practice`` refuses it; ``pair now`` with fewer than two
members to pair says so and leaves the week's pairing to come; a brief whose member's
topics have nothing left to ask falls back to the channel's questions."""

from __future__ import annotations

import pytest

from bot.kernel.grades import Grade
from bot.pairing.schedule import pairing_key
from questions.catalog import Catalog
from tests.core.test_pairing import WEEK, briefs, member_id, opted_in
from tests.core.test_peer_reviews import catalog_with_key_points
from tests.harness import QuizHarness


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


async def test_pair_on_refuses_an_unknown_topic(quiz: QuizHarness) -> None:
    await quiz.command("pair schedule tue 10:00")
    refused = await quiz.command("pair on gpu gpus", by="ann")
    assert "Unknown topic 'gpus'" in refused.card.body
    assert "Topics: " in refused.card.body and "gpu" in refused.card.body
    status = await quiz.command("pair", by="ann")
    assert next(f.value for f in status.card.fields if f.name == "You").startswith("Not opted in")
    assert (await quiz.command("pair on gpu", by="ann")).card.title == "Pairing on"


async def test_pair_now_with_one_member_says_so_and_keeps_the_week(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob")
    await quiz.command("pair skip", by="bob")
    alone = await quiz.command("pair now")
    assert "Only 1 member" in alone.card.body and "two" in alone.card.body
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    assert await quiz.service.store.pairs.pairing_groups(pairing_key(channel.id, WEEK)) is None
    await quiz.command("pair on", by="cat")
    paired = await quiz.command("pair now")
    assert paired.card.title == "Pairing now"
    assert set(briefs(quiz.platform)) == {"ann", "cat"}


async def test_the_brief_falls_back_to_the_channels_questions(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob", topics="gpu")
    bob = await member_id(quiz, "bob")
    topics = quiz.service.engine.question_topics()
    for question_id in (q for q, topic in topics.items() if topic == "gpu"):
        await quiz.service.learning.grade(bob, question_id, Grade.GOOD, quiz.clock.now())
    await quiz.command("pair now")
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    (group,) = await quiz.service.store.pairs.pairing_groups(pairing_key(channel.id, WEEK)) or []
    question = await quiz.service.store.pairs.brief_question(group.id, bob)
    assert question is not None and topics[question] != "gpu"  # every gpu one was seen
    assert set(briefs(quiz.platform)) == {"ann", "bob"}  # bob's interviewer got a brief
