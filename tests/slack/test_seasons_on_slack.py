"""Seasons on Slack, through signed requests: the past season's champions posted once in
the channel at the turn, mentioning the user group named for them, and `/quiz season`
answered privately."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.feature import ChannelSchedule
from tests.slack.driver import SlackQuiz

ANN = "U0ANN"
NOVEMBER = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
TURN = datetime(2026, 12, 1, 0, 0, tzinfo=UTC)


async def fire_turn(slack_quiz: SlackQuiz) -> None:
    (channel,) = await slack_quiz.service.store.channels.list_channels()
    [season] = [
        s
        for s in slack_quiz.service.schedules
        if isinstance(s, ChannelSchedule) and s.kind == "season"
    ]
    slack_quiz.clock.set(TURN)
    await season.on_slot(channel.id, TURN)
    await slack_quiz.settle()


async def test_the_season_post_goes_to_the_channel_once_with_its_group(
    slack_quiz: SlackQuiz,
) -> None:
    slack_quiz.clock.set(NOVEMBER)
    await slack_quiz.command("now")
    await slack_quiz.reply("shard the KV cache by head", by=ANN)
    assert (await slack_quiz.command("config season-role S0CHAMPS")).status == 200
    await fire_turn(slack_quiz)
    await fire_turn(slack_quiz)  # the turn handled twice: one post

    posts = [
        p for p in slack_quiz.fake.posts(slack_quiz.channel) if (p.key or "").startswith("season:")
    ]
    assert len(posts) == 1
    [post] = posts
    assert post.thread_ts is None  # in the channel, not in a thread
    text = "\n".join(post.block_texts())
    assert "Season 2026-11" in text
    assert "Most points" in text
    assert "<!subteam^S0CHAMPS>" in text  # the one mention the post carries

    await slack_quiz.command("season 2026-11", by=ANN)
    [shown] = slack_quiz.told(ANN)[-1:]
    assert "Season 2026-11" in shown and "Past champions" in shown
