"""find_sent after a crash between sending and recording: it looks through the whole
time span of the round (history since the round was created, every page of the
thread), not just the newest few hundred messages."""

from __future__ import annotations

import pytest

from bot.refs import ChannelRef, MessageRef, ThreadRef
from bot.render import Card
from tests.fakes import SimulatedCrash
from tests.slack.driver import SlackQuiz


async def test_a_question_behind_500_newer_messages_is_found_not_posted_again(
    slack_quiz: SlackQuiz, monkeypatch: pytest.MonkeyPatch
) -> None:
    quiz = slack_quiz
    quiz.fake.chatter(quiz.channel, 50)  # older than the round: never needed
    real_post = quiz.slack.post

    async def post_then_crash(channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        await real_post(channel, card, key=key)
        raise SimulatedCrash(key)

    monkeypatch.setattr(quiz.slack, "post", post_then_crash)
    with pytest.raises(SimulatedCrash):
        await quiz.command("now")
    monkeypatch.undo()
    quiz.fake.chatter(quiz.channel, 500)  # a busy channel while the bot was down
    await quiz.settle()

    question = quiz.question()
    assert len(quiz.fake.with_key(question.key or "")) == 1
    assert (quiz.channel, question.ts, "bulb") in quiz.fake.reactions  # the round went on


async def test_a_thread_reply_behind_250_replies_is_found_not_posted_again(
    slack_quiz: SlackQuiz, monkeypatch: pytest.MonkeyPatch
) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    quiz.fake.chatter(quiz.channel, 250, thread=quiz.question().ts)
    real_reply = quiz.slack.reply

    async def reply_then_crash(thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        await real_reply(thread, card, key=key)
        raise SimulatedCrash(key)

    monkeypatch.setattr(quiz.slack, "reply", reply_then_crash)
    with pytest.raises(SimulatedCrash):
        await quiz.react("bulb", by="U1", ts=quiz.question().ts)
    monkeypatch.undo()
    quiz.fake.chatter(quiz.channel, 30, thread=quiz.question().ts)
    await quiz.settle()

    keys = [m.key for m in quiz.thread() if m.key]
    assert keys == ["round:1:follow_ups", "round:1:outline"]
