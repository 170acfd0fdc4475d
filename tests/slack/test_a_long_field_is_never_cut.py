"""Correcting a question in the Slack modal never cuts a field longer than the modal holds
(3,000 characters an input): it is shown empty with a hint saying why, and left as it is
unless the admin types a replacement."""

from __future__ import annotations

import json
from typing import Any

import pytest

from questions.catalog import Catalog
from questions.pack import Pack
from tests.slack.driver import ADMIN, SlackQuiz

MEMBER = "U0ALICE"
PARAGRAPH = "Shard the KV cache by attention head, then page it in fixed blocks. " * 11
LONG_OUTLINE = "\n\n".join(f"{n}. {PARAGRAPH.strip()}" for n in range(1, 25))[:14_307] + "."


@pytest.fixture
def catalog() -> Catalog:
    question = {
        "id": "kv-long",
        "topic": "kv-cache",
        "question": "How large is the KV cache of a 70B model?",
        "outline": LONG_OUTLINE,
        "follow_ups": ["What does paged attention change?"],
        "key_points": ["the per-token formula", "GQA divides it", "linear in context"],
    }
    return Catalog([Pack.model_validate({"id": "long", "title": "Long", "questions": [question]})])


def shown(view: dict[str, Any]) -> dict[str, str]:
    """What the modal's inputs hold when it opens: what an admin submits unless edited."""
    return {b["block_id"]: b["element"].get("initial_value", "") for b in view["blocks"]}


async def correct(quiz: SlackQuiz, **typed: str) -> dict[str, Any]:
    await quiz.command("review edit f1", by=ADMIN)
    view = quiz.fake.views[-1]
    answer = await quiz.submit(view, {**shown(view), **typed}, by=ADMIN)
    assert answer.status == 200 and answer.body == "", answer.body
    assert "corrected for this workspace" in quiz.told(ADMIN)[-1]
    return view


async def test_a_long_outline_is_kept_whole_when_another_field_is_corrected(
    slack_quiz: SlackQuiz,
) -> None:
    assert len(LONG_OUTLINE) == 14_308
    quiz = slack_quiz
    await quiz.command("now")
    await quiz.command("flag it is a 70B model with GQA", by=MEMBER)

    view = await correct(quiz, question="How large is the KV cache of a 70B model with GQA?")

    [override] = await quiz.service.store.bank.overrides()
    assert override.question.question == "How large is the KV cache of a 70B model with GQA?"
    assert override.question.outline == LONG_OUTLINE
    [outline] = [b for b in view["blocks"] if b["block_id"] == "outline"]
    assert "initial_value" not in outline["element"] and outline["optional"]
    assert "14,308 characters" in outline["hint"]["text"]
    assert json.loads(view["private_metadata"])["kept"] == ["outline"]


async def test_a_replacement_typed_in_the_empty_field_replaces_it(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    await quiz.command("flag far too long", by=MEMBER)
    await correct(quiz, outline="2 x layers x KV heads x head dim x 2 bytes per token.")
    [override] = await quiz.service.store.bank.overrides()
    assert override.question.outline == "2 x layers x KV heads x head dim x 2 bytes per token."
