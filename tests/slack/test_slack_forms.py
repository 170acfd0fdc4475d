"""Suggestions and reviews on Slack: modals through views.open, field errors on the open
modal, review buttons on the private review card."""

from __future__ import annotations

import json

from tests.slack.driver import ADMIN, SlackQuiz

MEMBER = "U0ALICE"
GOOD = {
    "topic": "kv-cache-sizing",
    "question": "How large is the KV cache of a 70B model at 32k tokens of context?",
    "outline": "2 x 80 layers x 8 KV heads x 128 x 2 bytes = 320 KiB per token, 10 GiB at 32k.",
    "follow_ups": "What does paged attention change?",
    "key_points": "the per-token formula\nGQA divides it\nlinear in context",
}


async def test_suggest_opens_a_modal_and_a_bad_field_stays_open(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("now")
    response = await slack_quiz.command("suggest", by=MEMBER)
    assert response.status == 200
    assert slack_quiz.fake.count("views.open") == 1
    view = slack_quiz.fake.views[-1]
    assert view["callback_id"] == "quizform:suggest:"
    assert json.loads(view["private_metadata"]) == {"channel": slack_quiz.channel}
    assert [b["block_id"] for b in view["blocks"]] == [
        "topic",
        "question",
        "outline",
        "follow_ups",
        "key_points",
    ]
    assert [b["optional"] for b in view["blocks"]] == [False, False, False, True, True]

    refused = await slack_quiz.submit(view, {**GOOD, "key_points": "only one"}, by=MEMBER)
    assert refused.status == 200
    answer = json.loads(refused.body)
    assert answer == {
        "response_action": "errors",
        "errors": {"key_points": "key_points: give 3 to 7 key points, not 1"},
    }
    bank = slack_quiz.service.store.bank
    assert await bank.flags() == [] and (await bank.own_questions()) == []

    accepted = await slack_quiz.submit(view, GOOD, by=MEMBER)
    assert accepted.status == 200 and accepted.body == ""
    assert "Suggestion #s1 waits for an admin's review" in slack_quiz.told(MEMBER)[-1]


async def test_review_buttons_approve_and_reject_with_a_reason(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("now")
    await slack_quiz.command("suggest", by=MEMBER)
    await slack_quiz.submit(slack_quiz.fake.views[-1], GOOD, by=MEMBER)
    await slack_quiz.command("suggest", by=MEMBER)
    await slack_quiz.submit(
        slack_quiz.fake.views[-1], {**GOOD, "topic": "kv-cache-again"}, by=MEMBER
    )

    refused = await slack_quiz.command("review", by=MEMBER)
    assert refused.status == 200
    assert "needs a quiz admin" in slack_quiz.told(MEMBER)[-1]

    await slack_quiz.command("review", by=ADMIN)
    card = slack_quiz.fake.ephemerals[-1]
    actions = [b for b in card["blocks"] if b["type"] == "actions"]
    ids = [e["action_id"] for block in actions for e in block["elements"]]
    assert len(ids) == len(set(ids)) == 6  # Slack refuses repeated action ids in a block
    assert ids[:3] == ["quiz:review_approve", "quiz:review_edit", "quiz:review_reject"]

    await slack_quiz.press_on("1.0", ids[0], "s1", by=ADMIN)
    assert "Approved #s1" in slack_quiz.told(ADMIN)[-1]
    assert "Your question was approved" in slack_quiz.told(MEMBER)[-1]

    await slack_quiz.press_on("1.0", ids[5], "s2", by=ADMIN)  # Reject s2: asks for a reason
    reason_form = slack_quiz.fake.views[-1]
    assert reason_form["callback_id"] == "quizform:reject:s2"
    await slack_quiz.submit(reason_form, {"reason": "a duplicate of s1"}, by=ADMIN)
    assert "Reason: a duplicate of s1" in slack_quiz.told(MEMBER)[-1]

    await slack_quiz.command("leaderboard", by=MEMBER)
    assert "20 pts" in slack_quiz.told(MEMBER)[-1]
