"""`/quiz now TOPIC` tells the admin when the topic is disabled in the channel, or when its
every question was asked already, so the one posted comes round again."""

from __future__ import annotations

from tests.harness import QuizHarness

TWO_QUESTIONS = "networking"  # a topic of the sample pack with two questions


async def test_a_disabled_topic_is_posted_and_said_to_be_disabled(quiz: QuizHarness) -> None:
    await quiz.command(f"topics disable {TWO_QUESTIONS}")

    told = (await quiz.command(f"now {TWO_QUESTIONS}")).card.plain_text()

    assert "Posting question #1." in told
    assert f"{TWO_QUESTIONS} is disabled in this channel" in told
    assert "asked again" not in told


async def test_a_topic_whose_every_question_was_asked_says_so(quiz: QuizHarness) -> None:
    first = (await quiz.command(f"now {TWO_QUESTIONS}")).card.plain_text()
    await quiz.command("skip")
    second = (await quiz.command(f"now {TWO_QUESTIONS}")).card.plain_text()
    await quiz.command("skip")
    third = (await quiz.command(f"now {TWO_QUESTIONS}")).card.plain_text()

    assert "asked again" not in first + second
    assert f"Every question of {TWO_QUESTIONS} was asked in this channel already" in third
    assert "disabled" not in first + second + third


async def test_now_without_a_topic_says_nothing_more(quiz: QuizHarness) -> None:
    await quiz.command(f"topics disable {TWO_QUESTIONS}")
    assert (await quiz.command("now")).card.plain_text() == "Posting question #1."
