"""Slack names a toned reaction ``+1::skin-tone-3``: it is a vote, and a toned reveal
emoji reveals; the vote emoji (by any of its names) and two emoji are refused as the
reveal emoji, with the reason, and the setting stays as it was."""

from __future__ import annotations

import pytest

from tests.slack.driver import ADMIN, SlackQuiz

ALICE, BOB = "U0ALICE", "U0BOB"


async def test_a_toned_vote_counts_and_a_toned_hand_reveals(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await quiz.command("config reveal-emoji ✋")
    await quiz.command("now")
    answer_ts = await quiz.reply("ring all-reduce", by=ALICE)
    await quiz.react("+1::skin-tone-3", by=BOB, ts=answer_ts)
    await quiz.react("hand::skin-tone-5", by=BOB, ts=quiz.question().ts)
    store = quiz.service.store
    [channel] = await store.channels.list_channels()
    round_ = await store.rounds.latest_round(channel.id)
    assert round_ is not None and round_.revealed_at is not None
    [answer] = await store.answers.round_answers(round_.id)
    assert answer.votes == 1


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("👍", "is the vote emoji"),
        ("👍🏾", "is the vote emoji"),
        ("+1", "is the vote emoji"),
        (":thumbsup::skin-tone-2:", "is the vote emoji"),
        ("💡✋", "more than one emoji"),
        (":bulb::bulb:", "more than one emoji"),
    ],
)
async def test_the_vote_emoji_and_two_emoji_are_refused_with_the_reason(
    slack_quiz: SlackQuiz, typed: str, reason: str
) -> None:
    quiz = slack_quiz
    await quiz.command(f"config reveal-emoji {typed}")
    assert reason in quiz.told(ADMIN)[-1]
    await quiz.command("now")
    assert (quiz.channel, quiz.question().ts, "bulb") in quiz.fake.reactions  # unchanged
