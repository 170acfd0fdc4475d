"""Notices and the ping on Slack, through signed requests and the fake Web API: the
question mentions the user group an admin set (``<!subteam^ID>``, the only mention the bot
writes), and a member's ``/quiz notify on`` brings a DM with the question's permalink."""

from __future__ import annotations

from bot.channels.setting_rules import ping_group
from bot.kernel.platform import GroupMentions
from tests.slack.driver import ADMIN, SlackQuiz

GROUP = "S0123ABCD"
MEMBER = "U0ANN"


async def test_the_question_mentions_the_user_group(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command(f"config ping <!subteam^{GROUP}|@backend>")
    await slack_quiz.command("now")

    question = slack_quiz.question()
    assert question.text.startswith(f"<!subteam^{GROUP}> ")
    assert question.blocks[0]["text"]["text"] == f"<!subteam^{GROUP}>"
    others = [m for m in slack_quiz.fake.messages if m.ts != question.ts]
    assert all("subteam" not in m.text + str(m.blocks) for m in others)


async def test_a_ping_of_everyone_is_refused_with_the_right_form(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("config ping <!here>")
    await slack_quiz.command("now")

    assert "subteam" not in slack_quiz.question().text
    assert "<!here>" not in slack_quiz.question().text
    told = " ".join(slack_quiz.told(ADMIN))
    assert "everyone in the channel" in told and "/quiz config" in told


async def test_a_member_with_notices_on_gets_a_dm_with_the_permalink(
    slack_quiz: SlackQuiz,
) -> None:
    await slack_quiz.command("config grace 6")
    await slack_quiz.command("notify on", by=MEMBER)
    await slack_quiz.command("now")

    [notice] = [m for m in slack_quiz.fake.messages if m.channel == f"D{MEMBER}"]
    question = slack_quiz.question()
    assert "Question #1 is up" in notice.text
    permalink = (
        f"https://fake.slack.test/archives/{question.channel}/p{question.ts.replace('.', '')}"
    )
    assert permalink in str(notice.blocks)


def test_slack_reads_its_user_group_mention(slack_quiz: SlackQuiz) -> None:
    platform = slack_quiz.slack
    assert isinstance(platform, GroupMentions)
    assert ping_group(f"<!subteam^{GROUP}|@backend>", platform) == GROUP
    assert ping_group(f"<!subteam^{GROUP}>", platform) == GROUP
    assert ping_group(GROUP, platform) == GROUP


async def test_a_discord_role_typed_on_slack_is_refused_with_slacks_form(
    slack_quiz: SlackQuiz,
) -> None:
    await slack_quiz.command("config ping <@&730000000000000009>")
    await slack_quiz.command("now")

    assert "subteam" not in slack_quiz.question().text
    told = " ".join(slack_quiz.told(ADMIN))
    assert "is not a role or group. Give a Slack user group (its id, such as S0123ABCD" in told
    assert "Discord" not in told and "/quiz config" in told
