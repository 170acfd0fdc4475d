"""The question form (suggest, edit): five fields, validated exactly as pack files are."""

from __future__ import annotations

from collections.abc import Mapping

from bot.kernel.forms import FieldProblem, Form, FormField
from questions.pack import MAX_KEY_POINTS, MIN_KEY_POINTS, Question
from questions.question_check import QuestionInvalid, check_question, text_list

TOPIC, QUESTION, OUTLINE, FOLLOW_UPS, KEY_POINTS = (
    "topic",
    "question",
    "outline",
    "follow_ups",
    "key_points",
)
LIST_FIELDS = (FOLLOW_UPS, KEY_POINTS)


def question_fields(values: Mapping[str, str] | None = None) -> tuple[FormField, ...]:
    given = values or {}
    return (
        FormField(
            TOPIC, "Topic", value=given.get(TOPIC, ""), hint="lowercase-words, e.g. kv-cache"
        ),
        FormField(
            QUESTION, "Question, as an interviewer asks it", True, value=given.get(QUESTION, "")
        ),
        FormField(OUTLINE, "Sample answer outline", True, value=given.get(OUTLINE, "")),
        FormField(
            FOLLOW_UPS,
            "Follow-up questions, one per line",
            True,
            required=False,
            value=given.get(FOLLOW_UPS, ""),
        ),
        FormField(
            KEY_POINTS,
            f"Key points, {MIN_KEY_POINTS}-{MAX_KEY_POINTS}, one per line",
            True,
            required=False,
            value=given.get(KEY_POINTS, ""),
        ),
    )


def question_form(kind: str, target: str, title: str, values: Mapping[str, str] | None) -> Form:
    return Form(kind, target, title, question_fields(values), submit="Save")


def question_values(question: Question) -> dict[str, str]:
    """A question as the form's field values (lists one item per line)."""
    return {
        TOPIC: question.topic,
        QUESTION: question.question,
        OUTLINE: question.outline,
        FOLLOW_UPS: "\n".join(question.follow_up_asks),
        KEY_POINTS: "\n".join(question.key_points),
    }


def question_from_values(
    values: Mapping[str, str], *, question_id: str, keep: Question | None = None
) -> Question:
    """The question the form describes (``keep``: the edited question, whose difficulty, tags
    and corrections it keeps, with the text of each field the submission leaves out: one too
    long for the platform's form, left as it was; and the notes of each follow-up the edit
    kept word for word: the form has no box for them); raises QuestionInvalid naming each
    bad field."""
    given = {**(question_values(keep) if keep is not None else {}), **values}
    follow_ups: list[object] = list(text_list(given.get(FOLLOW_UPS, "")))
    data: dict[str, object] = {
        "id": question_id,
        TOPIC: given.get(TOPIC, "").strip(),
        QUESTION: given.get(QUESTION, ""),
        OUTLINE: given.get(OUTLINE, ""),
        FOLLOW_UPS: follow_ups,
        KEY_POINTS: text_list(given.get(KEY_POINTS, "")),
    }
    if keep is not None:
        data.update(difficulty=keep.difficulty, tags=keep.tags, corrections=keep.corrections)
        notes = {f.ask: f.notes for f in keep.follow_ups if f.notes is not None}
        data[FOLLOW_UPS] = [
            {"ask": ask, "notes": notes[ask]} if ask in notes else ask for ask in follow_ups
        ]
    return check_question(data)


def form_problems(invalid: QuestionInvalid) -> tuple[FieldProblem, ...]:
    """One problem per form field (``key_points[2]`` belongs to the ``key_points`` box)."""
    by_field: dict[str, FieldProblem] = {}
    for problem in invalid.problems:
        name = problem.field.split("[", 1)[0]
        by_field.setdefault(name, FieldProblem(name, f"{problem.field}: {problem.message}"))
    return tuple(by_field.values())


def echo(values: Mapping[str, str]) -> str:
    """What the member typed, to repeat in a refusal so nothing is lost."""
    lines = []
    for field in question_fields():
        text = values.get(field.name, "").strip()
        if text:
            lines.append(f"{field.name}:\n{text}")
    return "\n\n".join(lines)
