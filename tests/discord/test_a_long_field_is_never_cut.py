"""Editing a question in a Discord modal never cuts a field longer than a text input holds
(4,000 characters): it is shown empty, its placeholder says why, and it is left as it is
unless the admin types a replacement."""

from __future__ import annotations

from typing import Any

from adapters.discord.inbound import member_ref
from bot.bank.catalog import workspace_of
from questions.pack import Question
from tests.discord.conftest import eventually
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    LEAD,
    Quiz,
    quiz,
)
from tests.discord.test_discord_forms import _open_modal, _submit

LONG_OUTLINE = ("Page the KV cache in fixed blocks and share the prefix. " * 200).strip()


def inputs(modal: dict[str, Any]) -> list[dict[str, Any]]:
    return [row["components"][0] for row in modal["components"]]


def replied(quiz: Quiz) -> str:  # noqa: F811
    """Every embed the bot answered interactions with, as one text."""
    return str(
        [r.get("embeds", r.get("data", {}).get("embeds")) for r in quiz.fake.interaction_replies]
    )


def shown(modal: dict[str, Any]) -> dict[str, str]:
    """What the modal's inputs hold when it opens: what an admin submits unless edited."""
    return {i["custom_id"]: i.get("value") or "" for i in inputs(modal)}


async def test_a_long_outline_survives_an_edit_of_another_field(quiz: Quiz) -> None:  # noqa: F811
    assert len(LONG_OUTLINE) > 4000
    await quiz.command(LEAD, "now")
    [channel] = await quiz.store.channels.list_channels()
    question = Question(
        id="kv-long",
        topic="kv-cache",
        question="How large is the KV cache of a 70B model?",
        outline=LONG_OUTLINE,
        key_points=("the per-token formula", "GQA divides it", "linear in context"),
    )
    member_id = await quiz.store.members.member_id(member_ref(quiz.fake.guild_id, ANN, "ann"))
    await quiz.store.bank.add_suggestion(
        workspace_of(channel.ref), channel.id, member_id, question, quiz.clock.now()
    )

    modal = await _open_modal(quiz, LEAD, "review", {"action": "edit", "item": "s1"})
    [outline] = [i for i in inputs(modal) if i["custom_id"].startswith("outline")]
    await _submit(quiz, LEAD, modal, {**shown(modal), "topic": "inference"})
    await eventually(lambda: "Topic: inference" in replied(quiz))  # the saved card, in parts

    edited = await quiz.store.bank.get_suggestion(1)
    assert edited is not None and edited.question.topic == "inference"
    assert edited.question.outline == LONG_OUTLINE
    assert not outline.get("value") and outline["required"] is False
    assert outline["custom_id"] == "outline:kept"  # so a submission after a restart knows
    assert f"{len(LONG_OUTLINE):,} characters" in outline["placeholder"]


async def test_a_replacement_typed_in_the_empty_field_replaces_it(quiz: Quiz) -> None:  # noqa: F811
    await quiz.command(LEAD, "now")
    [channel] = await quiz.store.channels.list_channels()
    question = Question(
        id="kv-long",
        topic="kv-cache",
        question="How large is the KV cache of a 70B model?",
        outline=LONG_OUTLINE,
        key_points=("the per-token formula", "GQA divides it", "linear in context"),
    )
    member_id = await quiz.store.members.member_id(member_ref(quiz.fake.guild_id, ANN, "ann"))
    await quiz.store.bank.add_suggestion(
        workspace_of(channel.ref), channel.id, member_id, question, quiz.clock.now()
    )
    modal = await _open_modal(quiz, LEAD, "review", {"action": "edit", "item": "s1"})
    await _submit(quiz, LEAD, modal, {**shown(modal), "outline:kept": "Page it in blocks."})
    await eventually(lambda: "Page it in blocks." in replied(quiz))
    edited = await quiz.store.bank.get_suggestion(1)
    assert edited is not None and edited.question.outline == "Page it in blocks."
