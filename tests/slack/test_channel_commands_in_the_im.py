"""`/quiz` in the member's IM with the bot, or in a group DM (which Slack names ``mpdm-…``,
its id starting with G like a private channel's): a command that acts on a channel is
refused with where to run it (no question posted, no quiz channel made of the
conversation); practice still starts, in the member's IM. A private channel is a channel."""

from __future__ import annotations

from tests.slack.driver import ADMIN, SlackQuiz

IM = f"D{ADMIN}"  # the admin's IM with the bot
GROUP_DM = ("G0GROUPDM", "mpdm-ada--alice--bob-1")
PRIVATE_CHANNEL = ("G0PRIVATE", "quiz-private")


def said(slack_quiz: SlackQuiz) -> str:
    """Everything the bot answered privately, directly or through the response_url."""
    return str(slack_quiz.fake.ephemerals) + str(slack_quiz.fake.responses)


async def test_quiz_now_in_the_im_is_refused(slack_quiz: SlackQuiz) -> None:
    slack_quiz.channel = IM
    response = await slack_quiz.command("now")
    assert response.status == 200
    assert slack_quiz.fake.posts(IM) == []
    assert await slack_quiz.service.store.channels.list_channels() == []
    assert "only in a channel" in said(slack_quiz) + response.body
    assert "/quiz practice" in said(slack_quiz) + response.body


async def test_leaderboard_in_the_im_does_not_invite_starting_a_quiz(
    slack_quiz: SlackQuiz,
) -> None:
    slack_quiz.channel = IM
    response = await slack_quiz.command("leaderboard", by="U0ALICE")
    assert "An admin can start one" not in said(slack_quiz) + response.body
    assert "only in a channel" in said(slack_quiz) + response.body


async def test_practice_from_the_im_still_starts(slack_quiz: SlackQuiz) -> None:
    slack_quiz.channel = IM
    await slack_quiz.command("practice", by="U0ALICE")
    assert "only in a channel" not in said(slack_quiz)
    assert slack_quiz.fake.posts("DU0ALICE")[-1].block_texts()[0].startswith("Practice question")


async def test_quiz_now_in_a_group_dm_is_refused_as_in_the_im(slack_quiz: SlackQuiz) -> None:
    slack_quiz.channel, slack_quiz.channel_name = GROUP_DM
    response = await slack_quiz.command("now")
    assert response.status == 200
    assert slack_quiz.fake.posts(GROUP_DM[0]) == []
    assert await slack_quiz.service.store.channels.list_channels() == []
    assert "only in a channel" in said(slack_quiz) + response.body
    assert "/quiz practice" in said(slack_quiz) + response.body


async def test_practice_from_a_group_dm_starts_in_the_members_im(slack_quiz: SlackQuiz) -> None:
    slack_quiz.channel, slack_quiz.channel_name = GROUP_DM
    await slack_quiz.command("practice", by="U0ALICE")
    assert "only in a channel" not in said(slack_quiz)
    assert slack_quiz.fake.posts(GROUP_DM[0]) == []
    assert slack_quiz.fake.posts("DU0ALICE")[-1].block_texts()[0].startswith("Practice question")


async def test_a_private_channel_is_still_a_quiz_channel(slack_quiz: SlackQuiz) -> None:
    slack_quiz.channel, slack_quiz.channel_name = PRIVATE_CHANNEL
    await slack_quiz.command("now")
    [channel] = await slack_quiz.service.store.channels.list_channels()
    assert channel.ref.channel_id == PRIVATE_CHANNEL[0]
    assert slack_quiz.question().channel == PRIVATE_CHANNEL[0]


async def test_help_in_the_im_lists_only_what_works_there(slack_quiz: SlackQuiz) -> None:
    slack_quiz.channel = IM
    response = await slack_quiz.command("help", by="U0ALICE")
    told = said(slack_quiz) + response.body
    assert "/quiz practice" in told and "/quiz remind" in told
    assert "/quiz now" not in told and "/quiz leaderboard" not in told and "Admins" not in told
