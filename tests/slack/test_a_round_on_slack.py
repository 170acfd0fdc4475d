"""A whole round on Slack, through signed requests and a fake Web API."""

from __future__ import annotations

from bot.kernel.refs import ChannelRef
from tests.slack.driver import ADMIN, SlackQuiz
from tests.slack.fake_slack import TEAM


async def test_a_whole_round(slack_quiz: SlackQuiz) -> None:
    quiz, fake = slack_quiz, slack_quiz.fake

    response = await quiz.command("now")
    assert response.status == 200
    question = quiz.question()
    assert [b["type"] for b in question.blocks] == [
        "header",
        "section",
        "context",
        "context",
        "actions",
    ]
    assert question.blocks[0]["text"]["text"] == "Question #1"
    assert question.blocks[-1]["elements"][0]["action_id"] == "quiz:reveal"
    assert question.metadata == {
        "event_type": "quizbot_action",
        "event_payload": {"key": question.key},
    }
    assert (quiz.channel, question.ts, "bulb") in fake.reactions  # the reveal hint
    assert quiz.told(ADMIN) == ["Posting question #1."]

    first = await quiz.reply("Ring all-reduce: bandwidth-optimal", by="U1")
    await quiz.reply("Tree all-reduce for latency", by="U2")
    follow_ups = quiz.thread()
    assert len(follow_ups) == 1 and "Follow-up" in follow_ups[0].block_texts()[0]

    await quiz.react("bulb", by="U2", ts=question.ts)
    thread = quiz.thread()
    assert [m.block_texts()[0] for m in thread] == [
        "Follow-up questions",
        "Sample answer outline",
    ]

    await quiz.react("+1", by="U2", ts=first)
    await quiz.react("thumbsup", by="U3", ts=first)

    await quiz.command("leaderboard", by="U3")
    [board] = quiz.told("U3")
    lines = board.splitlines()
    assert "Leaderboard" in lines[0]
    assert "Member U1" in lines[1] and "Member U2" in lines[2]
    assert len(quiz.thread()) == 2  # nothing was posted twice


async def test_reveal_button_reveals_once(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    round_id = quiz.question().blocks[-1]["elements"][0]["value"]
    response = await quiz.press("quiz:reveal", round_id, by="U5")
    assert response.status == 200
    await quiz.press("quiz:reveal", round_id, by="U6")
    outlines = [m for m in quiz.thread() if m.block_texts()[0] == "Sample answer outline"]
    assert len(outlines) == 1
    assert quiz.told("U5") == ["Revealing the outline in the thread."]
    assert quiz.told("U6") == ["The outline is already in the thread."]


async def test_public_leaderboard_is_posted_in_the_channel(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    await quiz.reply("an answer", by="U1")
    before = len(quiz.fake.posts(quiz.channel))
    await quiz.command("leaderboard all public", by="U1")
    posts = quiz.fake.posts(quiz.channel)
    assert len(posts) == before + 1
    assert posts[-1].block_texts()[0].startswith("Leaderboard")
    assert quiz.told("U1") == []


async def test_the_bots_own_hint_reaction_does_not_reveal(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    await quiz.react("bulb", by="U0BOT", ts=quiz.question().ts)  # bolt drops self events
    assert quiz.thread() == []


async def test_an_edited_answer_is_an_edit_not_a_new_answer(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    ts = await quiz.reply("first draft", by="U1")
    question = quiz.question()
    response = await quiz.event(
        {
            "type": "message",
            "subtype": "message_changed",
            "channel": quiz.channel,
            "message": {
                "user": "U1",
                "text": "final &amp; better",
                "ts": ts,
                "thread_ts": question.ts,
            },
            "previous_message": {"user": "U1", "text": "first draft", "ts": ts},
        }
    )
    assert response.status == 200
    channel = await quiz.service.engine.channel(ChannelRef("slack", TEAM, quiz.channel))
    assert channel is not None
    round_ = await quiz.service.store.rounds.latest_round(channel.id)
    assert round_ is not None
    [answer] = await quiz.service.store.answers.round_answers(round_.id)
    assert answer.text == "final & better"


async def test_grade_buttons_under_the_outline_grade_privately(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    round_id = quiz.question().blocks[-1]["elements"][0]["value"]
    await quiz.press("quiz:reveal", round_id, by="U5")
    [outline] = [m for m in quiz.thread() if m.block_texts()[0] == "Sample answer outline"]
    [actions] = [b for b in outline.blocks if b["type"] == "actions"]
    assert [(e["action_id"], e["value"]) for e in actions["elements"]] == [
        (f"quiz:grade_{word}", round_id) for word in ("missed", "partly", "good", "nailed")
    ] + [("quiz:review_answer", f"r{round_id}")]  # the sample pack has no key points to tick
    await quiz.press("quiz:grade_missed", round_id, by="U7")
    await quiz.press("quiz:grade_good", round_id, by="U7")
    assert [text.splitlines()[0] for text in quiz.told("U7")] == [
        "Question #1 graded: missed",
        "Question #1: grade changed from missed to good",
    ]
