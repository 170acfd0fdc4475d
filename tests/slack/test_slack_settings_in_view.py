"""`/quiz config` on Slack: a member sees every setting privately; only an admin changes one."""

from __future__ import annotations

from tests.slack.driver import SlackQuiz

ALICE = "U0ALICE"


async def test_a_member_sees_the_settings_and_cannot_change_them(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await quiz.command("config grace 3")

    await quiz.command("config", by=ALICE)
    await quiz.command("config grace 1", by=ALICE)

    shown, refused = quiz.told(ALICE)[-2:]
    assert "grace" in shown and "3 h" in shown and "/quiz config reveal-emoji EMOJI" in shown
    assert "answers" in shown and "thread" in shown
    assert "admin" in refused
    [channel] = await quiz.service.store.channels.list_channels()
    assert channel.grace_hours == 3
