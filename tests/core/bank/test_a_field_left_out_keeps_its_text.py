"""A correction whose submission leaves a field out (the platform's form could not show it
whole) keeps that field's text; a field given empty is still refused when required."""

from __future__ import annotations

from bot.bank.moderation_cards import EDIT_ACTION
from tests.core.bank.test_suggestions import press, submit
from tests.harness import QuizHarness


async def test_a_left_out_outline_keeps_the_questions_own(quiz: QuizHarness) -> None:
    await quiz.command("now")
    round_ = await quiz.round()
    await quiz.command("flag the question is ambiguous", by="bob")
    opened = await press(quiz, EDIT_ACTION, "f1")
    assert opened.form is not None
    values = {f.name: f.value for f in opened.form.fields}
    outline = values.pop("outline")
    values["question"] = "A clearer question?"
    saved = await submit(quiz, "edit_question", values, by="admin", target=opened.form.target)
    assert "corrected for this workspace" in saved.card.body
    shown = quiz.service.engine.question_for(quiz.channel, round_.question_id)
    assert shown is not None
    assert (shown.question, shown.outline) == ("A clearer question?", outline)

    refused = await submit(
        quiz, "edit_question", {**values, "outline": ""}, by="admin", target=opened.form.target
    )
    assert [p.field for p in refused.problems] == ["outline"]
