"""A team's question is asked: an approved suggestion whose topic is new joins each channel
of the workspace enabled, even one whose topic list was customised, unless that channel's
admins chose `/quiz config new-topics disabled`; and the author and the approving admin
are told where it will be asked."""

from __future__ import annotations

import dataclasses

import pytest

from bot.bank.catalog import workspace_of
from bot.kernel.refs import ChannelRef
from tests.core.bank.test_suggestions import suggest
from tests.harness import QuizHarness

OTHER = ChannelRef("fake", "team", "C2", "infra")


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


def told_alice(quiz: QuizHarness) -> str:
    [*_, last] = [card for member, card in quiz.platform.told if member == "alice"]
    assert last.title == "Your question was approved"
    return last.body


async def topic_enabled(quiz: QuizHarness, topic: str) -> bool:
    lines = (await quiz.command("topics", by="bob")).card.body.splitlines()
    return f"✅ {topic}" in lines


async def test_a_new_topic_joins_a_customised_channel_enabled(quiz: QuizHarness) -> None:
    await quiz.command("topics disable gpu")
    await suggest(quiz)
    approved = await quiz.command("review approve s1")
    assert await topic_enabled(quiz, "kv-cache")
    assert not await topic_enabled(quiz, "gpu")  # the admins' own choice stays
    posted = await quiz.command("now kv-cache")
    assert posted.card.title == "Posting question #1."  # no "kv-cache is disabled here"
    assert "It may be asked in #practice." in told_alice(quiz)
    assert "It may be asked in #practice." in approved.card.body


async def test_a_channel_may_choose_that_new_topics_join_disabled(quiz: QuizHarness) -> None:
    other = dataclasses.replace(quiz, channel=OTHER)
    await other.command("now")  # a second quiz channel of the workspace, every topic on
    chose = await quiz.command("config new-topics disabled")
    assert "New topics join disabled" in chose.card.body
    [shown] = (await quiz.command("config new-topics")).card.fields
    assert shown.value.startswith("disabled")
    await suggest(quiz)
    approved = await quiz.command("review approve s1")
    assert not await topic_enabled(quiz, "kv-cache")
    assert await topic_enabled(other, "kv-cache")
    where = (
        "It may be asked in #infra; in #practice its topic kv-cache is disabled until an"
        " admin there runs `/quiz topics enable kv-cache`."
    )
    assert where in told_alice(quiz)
    assert where in approved.card.body


async def test_new_topics_enabled_again_keeps_the_topics_turned_off(quiz: QuizHarness) -> None:
    await quiz.command("config new-topics disabled")
    await quiz.command("topics disable gpu")
    await quiz.command("config new-topics enabled")
    await suggest(quiz)
    await quiz.command("review approve s1")
    assert await topic_enabled(quiz, "kv-cache")
    assert await topic_enabled(quiz, "networking") and await topic_enabled(quiz, "memory")
    assert not await topic_enabled(quiz, "gpu")


async def test_the_choice_survives_a_restart_of_the_channel_cache(quiz: QuizHarness) -> None:
    await quiz.command("topics disable gpu")
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    stored = await quiz.service.store.channels.get_channel_by_id(channel.id)
    assert stored is not None and stored.topics == channel.topics
    await suggest(quiz)
    await quiz.command("review approve s1")
    known = quiz.service.engine.questions.topics(workspace_of(quiz.channel))
    assert stored.topics.enabled(known) == frozenset({"kv-cache", "memory", "networking"})


async def test_a_topic_command_says_which_topics_are_off(quiz: QuizHarness) -> None:
    changed = await quiz.command("topics disable gpu")
    assert "Disabled topics: gpu." in changed.card.body
    assert "New topics join enabled" in changed.card.body
