"""Suggestions on Discord: /quiz suggest answers with a modal (no deferral first), a refused
field is named in a private reply that repeats the input, an admin's edit opens a modal."""

from __future__ import annotations

from typing import Any

from tests.discord.conftest import (
    command_payload,
    eventually,
    feed,
    modal_submit_payload,
)
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    LEAD,
    Quiz,
    quiz,
)

GOOD = {
    "topic": "kv-cache-sizing",
    "question": "How large is the KV cache of a 70B model at 32k tokens of context?",
    "outline": "2 x 80 layers x 8 KV heads x 128 x 2 bytes = 320 KiB per token.",
    "follow_ups": "What does paged attention change?",
    "key_points": "the per-token formula\nGQA divides it\nlinear in context",
}


async def _open_modal(quiz: Quiz, user: int, name: str, options: dict[str, Any]) -> dict[str, Any]:  # noqa: F811
    before = len(quiz.fake.modals())
    feed(quiz.connected(), "INTERACTION_CREATE", command_payload(quiz.fake, user, name, options))
    await eventually(lambda: len(quiz.fake.modals()) > before)
    return quiz.fake.modals()[-1]


async def _submit(quiz: Quiz, user: int, modal: dict[str, Any], values: dict[str, str]) -> str:  # noqa: F811
    """Submit the modal; returns the text of the private answer."""
    replies = len(quiz.fake.interaction_replies)
    payload = modal_submit_payload(quiz.fake, user, modal["custom_id"], values)
    await quiz.run("INTERACTION_CREATE", payload)
    await eventually(lambda: len(quiz.fake.interaction_replies) >= replies + 2)
    answer = quiz.fake.interaction_replies[-1]
    return "\n".join(str(e.get("description", "")) for e in answer.get("embeds", []))


async def test_suggest_opens_a_modal_and_names_a_bad_field(quiz: Quiz) -> None:  # noqa: F811
    await quiz.command(LEAD, "now")
    modal = await _open_modal(quiz, ANN, "suggest", {})
    first = quiz.fake.interaction_replies[-1]
    assert first["type"] == 9  # the modal is the interaction's first response
    inputs = [row["components"][0] for row in modal["components"]]
    assert [i["custom_id"] for i in inputs] == [
        "topic",
        "question",
        "outline",
        "follow_ups",
        "key_points",
    ]
    assert len(inputs) == 5 and all(len(i["label"]) <= 45 for i in inputs)

    refused = await _submit(quiz, ANN, modal, {**GOOD, "topic": "KV Cache"})
    assert "topic: must be lowercase letters and digits" in refused
    assert GOOD["question"] in refused and "KV Cache" in refused  # nothing typed is lost

    # a submitted modal closes on Discord: the member opens the form again
    accepted = await _submit(quiz, ANN, await _open_modal(quiz, ANN, "suggest", {}), GOOD)
    assert "Suggestion #s1 waits for an admin's review" in accepted


async def test_an_admin_edits_a_suggestion_in_a_prefilled_modal(quiz: Quiz) -> None:  # noqa: F811
    await quiz.command(LEAD, "now")
    modal = await _open_modal(quiz, ANN, "suggest", {})
    await _submit(quiz, ANN, modal, GOOD)
    edit = await _open_modal(quiz, LEAD, "review", {"action": "edit", "item": "s1"})
    values = {
        row["components"][0]["custom_id"]: row["components"][0].get("value")
        for row in edit["components"]
    }
    assert values["topic"] == "kv-cache-sizing"
    saved = await _submit(quiz, LEAD, edit, {**GOOD, "topic": "inference"})
    assert "Topic: inference" in saved
    await quiz.command(LEAD, "review", {"action": "approve", "item": "s1"})
    own = await quiz.store.bank.own_questions()
    assert [q.question.topic for q in own] == ["inference"]
