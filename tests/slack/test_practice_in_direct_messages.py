"""Private practice on Slack: conversations.open, the IM's message.im events, the grade
buttons in the IM; other IMs get the help text."""

from __future__ import annotations

from slack_bolt.response import BoltResponse

from tests.slack.driver import SlackQuiz
from tests.slack.fake_slack import Posted
from tests.slack.signed import FORM, action_body, bolt_request

MEMBER = "U0ALICE"
IM = f"D{MEMBER}"  # the fake's IM of the member with the bot


def in_im(slack_quiz: SlackQuiz) -> list[Posted]:
    return slack_quiz.fake.posts(IM)


async def say_in_im(slack_quiz: SlackQuiz, text: str) -> None:
    response = await slack_quiz.event(
        {
            "type": "message",
            "channel": IM,
            "channel_type": "im",
            "user": MEMBER,
            "text": text,
            "ts": slack_quiz.member_ts(),
        }
    )
    assert response.status == 200


async def press_in_im(slack_quiz: SlackQuiz, message: Posted, action: str) -> BoltResponse:
    button = next(
        element
        for block in message.blocks
        if block["type"] == "actions"
        for element in block["elements"]
        if element["action_id"].endswith(action)
    )
    body = action_body(
        action=button["action_id"],
        value=button["value"],
        user=MEMBER,
        channel=IM,
        message_ts=message.ts,
        response_url=f"{slack_quiz.fake.url}/response/3",
    )
    response = await slack_quiz.slack.app.async_dispatch(bolt_request(body, content_type=FORM))
    await slack_quiz.settle()
    return response


async def test_a_practice_session_in_the_slack_im(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("now")  # a quiz channel, as members would be in
    await say_in_im(slack_quiz, "hello?")
    assert "only while a practice session waits" in " ".join(in_im(slack_quiz)[0].block_texts())

    response = await slack_quiz.command("practice", by=MEMBER)
    assert response.status == 200
    assert slack_quiz.fake.count("conversations.open") == 1
    question = in_im(slack_quiz)[-1]
    assert question.block_texts()[0].startswith("Practice question")
    assert question.key is not None and question.key.startswith("practice:")

    await say_in_im(slack_quiz, "my answer")
    while "Sample answer outline" not in in_im(slack_quiz)[-1].block_texts()[0]:
        assert in_im(slack_quiz)[-1].block_texts()[0].startswith("Follow-up")
        await say_in_im(slack_quiz, "my follow-up answer")
    outline = in_im(slack_quiz)[-1]

    await press_in_im(slack_quiz, outline, "grade_good")
    # shown once: the confirmation in the IM, with its "Next question" button
    assert "Practice graded" not in str(slack_quiz.fake.ephemerals)
    graded = [p for p in in_im(slack_quiz) if "Practice graded" in p.block_texts()[0]]
    assert [p.block_texts()[0] for p in graded] == ["Practice graded: good"]
    assert await slack_quiz.service.store.reports.leaderboard(1, None) == []


async def test_an_answer_written_in_a_thread_of_the_im_counts(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("now")
    await slack_quiz.command("practice", by=MEMBER)
    question = in_im(slack_quiz)[-1]
    response = await slack_quiz.event(
        {
            "type": "message",
            "channel": IM,
            "channel_type": "im",
            "user": MEMBER,
            "text": "my answer, as a reply to the question",
            "ts": slack_quiz.member_ts(),
            "thread_ts": question.ts,
        }
    )
    assert response.status == 200
    await slack_quiz.settle()
    after = in_im(slack_quiz)[-1].block_texts()[0]
    assert after.startswith(("Follow-up 1 of", "Sample answer outline"))


async def test_timed_practice_in_the_slack_im_runs_out(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("now")
    response = await slack_quiz.command("practice timed 3", by=MEMBER)
    assert response.status == 200
    question = in_im(slack_quiz)[-1]
    assert "3 min to answer" in " ".join(question.block_texts())

    slack_quiz.clock.advance(minutes=2)
    await slack_quiz.settle()
    assert in_im(slack_quiz)[-1].block_texts()[0].startswith("1 minute left")
    slack_quiz.clock.advance(minutes=1)
    await slack_quiz.settle()
    time_up = " ".join(in_im(slack_quiz)[-1].block_texts())
    assert time_up.startswith("Follow-up 1 of") and "Time's up." in time_up

    await say_in_im(slack_quiz, "my late answer")  # the first follow-up's answer
    assert not in_im(slack_quiz)[-1].block_texts()[0].startswith("Follow-up 1")
