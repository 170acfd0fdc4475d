"""`/quiz now TOPIC` on Discord tells the admin the topic is disabled or asked through."""

from __future__ import annotations

from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    LEAD,
    Quiz,
    quiz,
)


async def test_quiz_now_of_a_disabled_topic_says_so(quiz: Quiz) -> None:  # noqa: F811
    await quiz.command(LEAD, "topics", {"action": "disable", "names": "numa"})
    await quiz.command(LEAD, "now", {"topic": "numa"})
    assert "numa is disabled in this channel" in str(quiz.fake.interaction_replies[-1])


async def test_quiz_now_of_a_topic_asked_through_says_so(quiz: Quiz) -> None:  # noqa: F811
    for _ in range(2):
        await quiz.command(LEAD, "now", {"topic": "numa"})
        await quiz.command(LEAD, "skip")
    await quiz.command(LEAD, "now", {"topic": "numa"})
    assert "Every question of numa was asked" in str(quiz.fake.interaction_replies[-1])
