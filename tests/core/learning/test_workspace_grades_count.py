"""Grades of a workspace's own (approved) questions count in mastery, stats and what is due."""

from __future__ import annotations

from datetime import timedelta

from bot.bank.moderation_cards import APPROVE_ACTION
from tests.core.bank.test_suggestions import press, suggest
from tests.harness import QuizHarness


async def test_a_graded_workspace_question_counts_in_me_stats_and_due(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await suggest(quiz)  # topic "kv-cache", a topic only this workspace has
    await press(quiz, APPROVE_ACTION, "s1")
    await quiz.command("skip")
    await quiz.command("now kv-cache")
    await quiz.react("alice", "💡")
    await quiz.command("grade missed", by="alice")
    me = (await quiz.command("me", by="alice")).card.plain_text()
    assert "kv-cache" in me.split("Mastery per topic")[1]
    assert "grade your answers after the reveal" not in me
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    now = quiz.clock.now()
    learning = quiz.service.learning
    assert "kv-cache" in await learning.channel_mastery(channel.id, now)
    assert await learning.channel_due(channel.id, now, now + timedelta(days=7)) == {"kv-cache": 1}
