"""Mock-interview pairs on Slack: the pair meets in one group DM with both members
(``conversations.open`` with both users), each member's brief comes to their own IM, and
the pairing's posts are sent once though the slot is handled twice."""

from __future__ import annotations

from tests.slack.driver import SlackQuiz

ANN, BOB = "U0ANN", "U0BOB"


async def test_a_pair_meets_in_a_group_dm_and_each_gets_a_brief(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("pair schedule mon 10:00")
    for member in (ANN, BOB):
        assert (await slack_quiz.command("pair on", by=member)).status == 200
    await slack_quiz.command("pair now")
    group = "G" + "".join(sorted((ANN, BOB)))
    assert slack_quiz.fake.group_dms == {group: sorted((ANN, BOB))}
    (intro,) = slack_quiz.fake.posts(group)
    text = " ".join(intro.block_texts())
    assert "Mock interview of the week" in text and "30-minute" in text
    assert "<@" not in text and "<!" not in text  # nobody is pinged
    for member in (ANN, BOB):
        (brief,) = [
            p
            for p in slack_quiz.fake.posts(f"D{member}")
            if "Your interviewer brief" in " ".join(p.block_texts())
        ]
        assert brief.key is not None and brief.key.startswith("pair:")
    # the slot again in the same week, and another outbox pass: nothing more is sent
    (channel,) = await slack_quiz.service.store.channels.list_channels()
    await slack_quiz.service.pairings.on_slot(channel.id, slack_quiz.clock.now())
    await slack_quiz.settle()
    assert len(slack_quiz.fake.posts(group)) == 1
