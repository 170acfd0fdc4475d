"""Seasons on Discord, through the fake gateway and REST server: the past season's
champions posted once in the channel at the turn, mentioning the role named for them with
``allowed_mentions`` naming that role alone."""

from __future__ import annotations

from bot.feature import ChannelSchedule
from bot.seasons.periods import local_day, season_of
from tests.discord.conftest import message_payload
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    LEAD,
    MESSAGES,
    Quiz,
    bot_posts,
    quiz,
)

ROLE = 730000000000000077


async def test_the_season_post_goes_to_the_channel_once_with_its_role(
    quiz: Quiz,  # noqa: F811
) -> None:
    await quiz.command(LEAD, "config", {"setting": "season-role", "value": f"<@&{ROLE}>"})
    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    round_ = await quiz.round()
    assert round_.thread is not None
    answer = quiz.fake.add_message(int(round_.thread), ANN, "Shard the KV cache by head")
    await quiz.run("MESSAGE_CREATE", message_payload(quiz.fake, answer))

    [channel] = await quiz.store.channels.list_channels()
    season = season_of(local_day(quiz.clock.now(), channel.timezone), channel.seasons)
    turn = season.bounds(channel.timezone)[1]
    [schedule] = [
        s for s in quiz.service.schedules if isinstance(s, ChannelSchedule) and s.kind == "season"
    ]
    quiz.clock.set(turn)
    for _ in range(2):  # the turn handled twice: one post
        await schedule.on_slot(channel.id, turn)
        await quiz.service.settle()

    posts = [
        m
        for m in bot_posts(quiz.fake, quiz.fake.channel_id)
        if m["embeds"] and m["embeds"][0]["title"] == f"🏆 Season {season.name}"
    ]
    assert len(posts) == 1
    [post] = posts
    assert post["content"] == f"<@&{ROLE}>"
    fields = {f["name"]: f["value"] for f in post["embeds"][0]["fields"]}
    assert fields["Most points"].startswith("ann: ")
    sent = next(
        r
        for r in quiz.fake.requests_to("POST", MESSAGES)
        if r.body.get("embeds", [{}])[0].get("title", "").startswith("🏆 Season")
    )
    assert sent.body["allowed_mentions"] == {"parse": [], "roles": [ROLE]}
