"""`/quiz now TOPIC` on Slack tells the admin the topic is disabled or asked through."""

from __future__ import annotations

from tests.slack.driver import SlackQuiz


def said(quiz: SlackQuiz) -> str:
    return str(quiz.fake.ephemerals) + str(quiz.fake.responses)


async def test_quiz_now_of_a_disabled_topic_says_so(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("topics disable networking")
    response = await slack_quiz.command("now networking")
    assert "networking is disabled in this channel" in said(slack_quiz) + response.body
    assert slack_quiz.question()


async def test_quiz_now_of_a_topic_asked_through_says_so(slack_quiz: SlackQuiz) -> None:
    for _ in range(2):
        await slack_quiz.command("now networking")
        await slack_quiz.command("skip")
        slack_quiz.clock.advance(seconds=1)  # two `/quiz now` in one second are one round
    response = await slack_quiz.command("now networking")
    assert "Every question of networking was asked" in said(slack_quiz) + response.body
