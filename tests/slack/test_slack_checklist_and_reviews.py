"""The checklist and reviews on Slack: the outline's Tick key points button opens a modal
of checkboxes, Review an answer a modal with the answers and scores to pick from; what is
chosen comes back as the key points and the review."""

from __future__ import annotations

from typing import Any

import pytest

from bot.kernel.grades import Grade
from bot.kernel.models import Round
from questions.catalog import Catalog
from questions.pack import Question
from tests.core.reviews.test_peer_reviews import catalog_with_key_points
from tests.slack.driver import SlackQuiz

ANN, BOB = "U0ANN", "U0BOB"


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


async def latest(slack_quiz: SlackQuiz) -> tuple[Round, Question]:
    [channel] = await slack_quiz.service.store.channels.list_channels()
    round_ = await slack_quiz.service.store.rounds.latest_round(channel.id)
    assert round_ is not None
    question = slack_quiz.service.engine.question_for(channel.ref, round_.question_id)
    assert question is not None
    return round_, question


async def revealed(slack_quiz: SlackQuiz) -> tuple[Round, Question]:
    await slack_quiz.command("now")
    await slack_quiz.reply("my answer about the ring", by=ANN)
    await slack_quiz.reply("mine about NVLink", by=BOB)
    round_, _ = await latest(slack_quiz)
    await slack_quiz.press("quiz:reveal", str(round_.id), by=BOB)
    return await latest(slack_quiz)


def outline_button(slack_quiz: SlackQuiz, action: str) -> tuple[str, str]:
    """The outline's ts and the value of its button ``action``."""
    [outline] = [
        m
        for m in slack_quiz.thread()
        if (m.key or "").startswith("round:") and any(b["type"] == "actions" for b in m.blocks)
    ]
    elements = [e for b in outline.blocks if b["type"] == "actions" for e in b["elements"]]
    [button] = [e for e in elements if e["action_id"] == action]
    return outline.ts, str(button["value"])


async def test_ticks_in_checkboxes_grade_the_answer(slack_quiz: SlackQuiz) -> None:
    round_, question = await revealed(slack_quiz)
    ts, value = outline_button(slack_quiz, "quiz:checklist")

    await slack_quiz.press_on(ts, "quiz:checklist", value, by=ANN)

    view = slack_quiz.fake.views[-1]
    [block] = view["blocks"]
    assert block["element"]["type"] == "checkboxes"
    every = [str(n) for n in range(1, len(question.key_points) + 1)]
    assert [o["value"] for o in block["element"]["options"]] == every
    await slack_quiz.submit(view, {"covered": every}, by=ANN)
    grades = await slack_quiz.service.store.learning.round_grades(round_.id)
    assert list(grades.values()) == [Grade.NAILED]


async def test_a_review_modal_picks_the_answer_and_the_score(slack_quiz: SlackQuiz) -> None:
    round_, _ = await revealed(slack_quiz)
    ts, value = outline_button(slack_quiz, "quiz:review_answer")

    await slack_quiz.press_on(ts, "quiz:review_answer", value, by=BOB)

    view = slack_quiz.fake.views[-1]
    kinds: dict[str, Any] = {b["block_id"]: b["element"]["type"] for b in view["blocks"]}
    assert kinds == {
        "answer": "static_select",
        "score": "static_select",
        "covered": "checkboxes",
        "comment": "plain_text_input",
    }
    await slack_quiz.submit(
        view, {"answer": ["1"], "score": ["3"], "covered": ["1"], "comment": "good"}, by=BOB
    )
    [ann_answer, _] = await slack_quiz.service.store.answers.round_answers(round_.id)
    [review] = await slack_quiz.service.store.reviews.answer_reviews(ann_answer.id)
    assert (review.score, review.covered, review.comment) == (3, (1,), "good")
    told = [m for m in slack_quiz.fake.messages if m.channel == f"D{ANN}"]
    assert told and "reviewed" in told[-1].text
