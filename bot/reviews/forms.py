"""The forms of the checklist and of a review, and what their buttons carry.

The Tick key points button under the outline opens the checklist (the key points as
ticks); Review an answer opens the review form (the round's answers to pick from, the
score, the key points the answer covered, a comment). A blind answer's own Review button
opens the same form with that answer picked. Submissions are refused field by field and
keep what the member gave, as every form does.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.kernel.events import ButtonPress, Command
from bot.kernel.forms import CHOICE_LABEL_LIMIT, CHOICES_LIMIT, Form, FormField
from bot.kernel.models import AnswerRecord, Round
from bot.reviews.rubric import SCORES
from bot.rounds.cards import CHECKLIST_ACTION, REVIEW_ACTION
from questions.pack import Question

CHECKLIST_FORM = "checklist"
REVIEW_FORM = "peer_review"
PEER_FORMS = frozenset({CHECKLIST_FORM, REVIEW_FORM})
COVERED = "covered"
ANSWER = "answer"
SCORE = "score"
COMMENT = "comment"
COMMENT_LIMIT = 1000


def opens_form(event: Command | ButtonPress) -> bool:
    """Whether the event may be answered with the checklist or a review form: the
    outline's **Tick key points** and **Review an answer** buttons, or ``/quiz covered``
    alone."""
    if isinstance(event, ButtonPress):
        return event.action in (CHECKLIST_ACTION, REVIEW_ACTION)
    return event.name.strip().lower() == "covered" and not any(a.strip() for a in event.args)


def _label(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= CHOICE_LABEL_LIMIT else line[: CHOICE_LABEL_LIMIT - 1] + "…"


def checklist_form(round_: Round, question: Question, ticked: Sequence[int] = ()) -> Form:
    return Form(
        kind=CHECKLIST_FORM,
        target=str(round_.id),
        title=f"Question #{round_.number}: key points",
        fields=(
            FormField(
                COVERED,
                "Which key points did your answer cover?",
                required=False,
                value=" ".join(map(str, ticked)),
                choices=tuple(_label(p) for p in question.key_points),
                multiple=True,
            ),
        ),
        submit="Propose my grade",
    )


def answer_choices(answers: Sequence[AnswerRecord]) -> tuple[str, ...]:
    """The answers a review form offers, numbered as ``/quiz rate`` numbers them (the
    first 25: a Discord select holds no more; the others are reviewed as text)."""
    return tuple(
        _label(f"#{n} {a.member_name}: {a.text}")
        for n, a in enumerate(answers[:CHOICES_LIMIT], start=1)
    )


def review_form(
    round_: Round,
    question: Question,
    answers: Sequence[AnswerRecord],
    picked: int | None = None,
    values: dict[str, str] | None = None,
) -> Form:
    given = values or {}
    fields = [
        FormField(
            ANSWER,
            "Which answer do you review?",
            value=given.get(ANSWER, "" if picked is None else str(picked)),
            choices=answer_choices(answers),
        ),
        FormField(
            SCORE,
            "Score",
            value=given.get(SCORE, ""),
            choices=tuple(f"{score} {words}" for score, words in SCORES.items()),
        ),
    ]
    if question.key_points:
        fields.append(
            FormField(
                COVERED,
                "Key points covered (the author earns points)",
                required=False,
                value=given.get(COVERED, ""),
                choices=tuple(_label(p) for p in question.key_points),
                multiple=True,
            )
        )
    fields.append(
        FormField(
            COMMENT,
            "Comment for the author (optional)",
            multiline=True,
            required=False,
            value=given.get(COMMENT, ""),
            max_length=COMMENT_LIMIT,
        )
    )
    return Form(
        kind=REVIEW_FORM,
        target=str(round_.id),
        title=f"Review: question #{round_.number}",
        fields=tuple(fields),
        submit="Send review",
    )
