"""Blind answers on Slack: the Answer button opens a modal (views.open), submissions and
`/quiz answer` are confirmed ephemerally, the reveal posts every answer once in the thread,
and reactions on those posts are votes."""

from __future__ import annotations

import json

import pytest

from bot.kernel.refs import MessageRef, ThreadRef
from bot.kernel.render import Card
from tests.fakes import SimulatedCrash
from tests.slack.driver import SlackQuiz

ALICE, BOB, CAROL = "U0ALICE", "U0BOB", "U0CAROL"


async def blind_round(quiz: SlackQuiz) -> str:
    """Turn blind mode on, post a question and return its Answer button's round id."""
    await quiz.command("config answers blind")
    await quiz.command("now")
    [answer, reveal] = quiz.question().blocks[-1]["elements"]
    assert (answer["action_id"], reveal["action_id"]) == ("quiz:answer", "quiz:reveal")
    return str(answer["value"])


async def answer_with_the_form(quiz: SlackQuiz, round_id: str, text: str, *, by: str) -> None:
    opened = quiz.fake.count("views.open")
    response = await quiz.press("quiz:answer", round_id, by=by)
    assert response.status == 200
    assert quiz.fake.count("views.open") == opened + 1
    submitted = await quiz.submit(quiz.fake.views[-1], {"answer": text}, by=by)
    assert submitted.status == 200 and submitted.body == ""


def posted_answers(quiz: SlackQuiz) -> list[str]:
    return [m.block_texts()[0] for m in quiz.thread() if "answer" in (m.key or "")]


async def test_the_answer_button_opens_a_modal_and_its_answer_is_told_privately(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    round_id = await blind_round(quiz)
    await quiz.press("quiz:answer", round_id, by=ALICE)
    view = quiz.fake.views[-1]
    assert view["callback_id"] == f"quizform:answer:{round_id}"
    assert json.loads(view["private_metadata"]) == {"channel": quiz.channel}
    assert [b["block_id"] for b in view["blocks"]] == ["answer"]

    empty = await quiz.submit(view, {"answer": "  "}, by=ALICE)
    assert json.loads(empty.body) == {
        "response_action": "errors",
        "errors": {"answer": "Write your answer first."},
    }
    await quiz.submit(view, {"answer": "ring all-reduce"}, by=ALICE)
    assert quiz.told(ALICE)[-1].startswith("Answer saved (only you see it)")
    assert quiz.thread() == []  # nothing public

    await quiz.command("answer tree all-reduce for latency", by=ALICE)
    assert quiz.told(ALICE)[-1].startswith("Answer changed (only you see it)")
    await quiz.press("quiz:answer", round_id, by=ALICE)  # the modal shows the answer so far
    assert quiz.fake.views[-1]["blocks"][0]["element"]["initial_value"] == (
        "tree all-reduce for latency"
    )


async def test_the_reveal_posts_the_answers_then_the_outline_and_votes_count(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    round_id = await blind_round(quiz)
    await answer_with_the_form(quiz, round_id, "bob's idea", by=BOB)
    quiz.clock.advance(seconds=5)
    await quiz.command("answer alice's idea", by=ALICE)
    await quiz.reply("typed in the thread", by=CAROL)
    assert "Blind mode is on in this channel" in quiz.told(CAROL)[-1]

    await quiz.command("reveal")
    texts = [m.block_texts()[0] for m in quiz.thread()]
    assert texts[-3:] == [
        "Member U0BOB's answer",
        "Member U0ALICE's answer",
        "Sample answer outline",
    ]
    bobs = next(m for m in quiz.thread() if m.block_texts()[0] == "Member U0BOB's answer")
    assert "bob's idea" in bobs.block_texts()

    await quiz.react("+1", by=ALICE, ts=bobs.ts)
    await quiz.react("+1", by=CAROL, ts=bobs.ts)
    answers = await quiz.service.round_answers(int(round_id))
    bob = next(a for a in answers if a.text == "bob's idea")
    assert (bob.message_id, bob.votes, bob.points) == (bobs.ts, 2, 17)

    await quiz.command("answer too late", by=BOB)
    assert quiz.told(BOB)[-1].startswith("Sorry")
    assert "already revealed, so answers are closed" in quiz.told(BOB)[-1]
    await quiz.press("quiz:answer", round_id, by=BOB)
    assert "already revealed" in quiz.told(BOB)[-1]


async def test_a_crash_between_two_posts_posts_each_answer_once(
    slack_quiz: SlackQuiz, monkeypatch: pytest.MonkeyPatch
) -> None:
    quiz = slack_quiz
    await blind_round(quiz)
    for member in (ALICE, BOB, CAROL):
        quiz.clock.advance(seconds=5)
        await quiz.command(f"answer idea of {member}", by=member)
    real_reply = quiz.slack.reply
    posted: list[str] = []

    async def crash_after_the_second(thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        sent = await real_reply(thread, card, key=key)
        posted.append(key)
        if len(posted) == 3:  # the follow-ups, alice's, bob's: sent, never recorded
            raise SimulatedCrash(key)
        return sent

    monkeypatch.setattr(quiz.slack, "reply", crash_after_the_second)
    with pytest.raises(SimulatedCrash):
        await quiz.command("reveal")
    monkeypatch.undo()
    await quiz.settle()  # as after a restart: the outline's action is tried again

    keys = [m.key for m in quiz.thread()]
    assert len(keys) == len(set(keys)) == 5
    assert posted_answers(quiz) == [
        "Member U0ALICE's answer",
        "Member U0BOB's answer",
        "Member U0CAROL's answer",
    ]
    assert quiz.fake.count("conversations.replies") >= 1  # bob's was looked for, not re-sent


async def test_the_longest_answer_taken_shows_whole_in_the_modal_and_a_longer_is_refused(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    round_id = await blind_round(quiz)
    await quiz.command("answer " + "x" * 3001, by=ALICE)
    assert "at most 3000 characters" in quiz.told(ALICE)[-1] and "3001" in quiz.told(ALICE)[-1]
    longest = "y" * 3000
    await quiz.command(f"answer {longest}", by=ALICE)
    assert quiz.told(ALICE)[-1].startswith("Answer saved (only you see it)")
    await quiz.press("quiz:answer", round_id, by=ALICE)  # to change it: nothing cut off
    element = quiz.fake.views[-1]["blocks"][0]["element"]
    assert (element["initial_value"], element["max_length"]) == (longest, 3000)
