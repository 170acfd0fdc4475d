"""Notices and the ping on Discord: a member's ``/quiz notify on`` brings a DM with the
question's link; ``/quiz config ping @role`` makes the question mention that role, with
``allowed_mentions`` naming that role alone, while every other message pings nobody."""

from __future__ import annotations

from bot.channels.setting_rules import ping_group
from bot.kernel.platform import GroupMentions
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    LEAD,
    MESSAGES,
    Quiz,
    bot_posts,
    quiz,
)
from tests.discord.test_discord_settings_in_view import last_private_embed

ROLE = 730000000000000077


async def test_the_question_pings_the_role_and_nothing_else_does(quiz: Quiz) -> None:  # noqa: F811
    await quiz.command(LEAD, "config", {"setting": "ping", "value": f"<@&{ROLE}>"})
    await quiz.command(LEAD, "now")
    await quiz.service.settle()

    [question] = [
        m
        for m in bot_posts(quiz.fake, quiz.fake.channel_id)
        if m["embeds"] and m["embeds"][0]["title"] == "Question #1"
    ]
    posts = quiz.fake.requests_to("POST", MESSAGES)
    asked = next(r for r in posts if r.body.get("embeds", [{}])[0].get("title") == "Question #1")
    assert question["content"] == f"<@&{ROLE}>"
    assert asked.body["allowed_mentions"] == {"parse": [], "roles": [ROLE]}
    others = [r for r in posts if r is not asked]
    assert others and all(r.body["allowed_mentions"] == {"parse": []} for r in others)


async def test_a_member_with_notices_on_gets_a_dm_with_the_link(quiz: Quiz) -> None:  # noqa: F811
    await quiz.command(LEAD, "config", {"setting": "grace", "value": "6"})
    await quiz.command(ANN, "notify", {"state": "on"})
    await quiz.command(LEAD, "now")
    await quiz.service.settle()

    [dm] = [c for c, json in quiz.fake.channels.items() if json["type"] == 1]
    [notice] = bot_posts(quiz.fake, dm)
    round_ = await quiz.round()
    assert notice["embeds"][0]["title"] == "Question #1 is up"
    assert f"/{quiz.fake.channel_id}/{round_.question_message}" in str(notice["embeds"][0])


def test_discord_reads_its_role_mention(quiz: Quiz) -> None:  # noqa: F811
    platform = quiz.connected()
    assert isinstance(platform, GroupMentions)
    assert ping_group(f"<@&{ROLE}>", platform) == str(ROLE)
    assert ping_group(str(ROLE), platform) == str(ROLE)


async def test_a_slack_user_group_typed_on_discord_is_refused_with_discords_form(
    quiz: Quiz,  # noqa: F811
) -> None:
    await quiz.command(LEAD, "config", {"setting": "ping", "value": "<!subteam^S0123ABCD>"})

    told = str(last_private_embed(quiz))
    assert "is not a role or group. Give a Discord role (@role, or its id), or off." in told
    assert "Slack" not in told
    await quiz.command(LEAD, "config", {"setting": "ping"})
    assert "off" in str(last_private_embed(quiz)["fields"])
