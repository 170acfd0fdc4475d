"""The cards of a private practice session, sent in the member's direct messages."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.kernel import cards as kernel_cards
from bot.kernel.grades import GRADE_WORDS, Grade
from bot.kernel.render import Button, Card, CardKind, Field
from bot.practice.timer import show_span
from bot.rounds import cards
from questions.pack import Question

PRACTICE_VALUE_PREFIX = "p"  # a grade button's value in a session's outline: "p12"
NEXT_ACTION = "practice_next"
HINT_ACTION = "practice_hint"  # its value: the session id
WORDS = "|".join(GRADE_WORDS)

HELP_TEXT = (
    "I read messages here only while a practice session waits for your answer. "
    "Start one with `/quiz practice [TOPIC]` right here (or in any channel: it runs here"
    " all the same); `/quiz help` lists the rest."
)


def practice_value(session_id: int) -> str:
    return f"{PRACTICE_VALUE_PREFIX}{session_id}"


def session_of_value(value: str) -> int | None:
    """The session id a practice grade button carries; None for anything else."""
    number = value.removeprefix(PRACTICE_VALUE_PREFIX)
    if value.startswith(PRACTICE_VALUE_PREFIX) and number.isascii() and number.isdigit():
        return int(number[:12])
    return None


def hint_buttons(question: Question, session_id: int | None) -> tuple[Button, ...]:
    """The Hint button, where there is a key point to reveal."""
    if session_id is None or not question.key_points:
        return ()
    return (Button("Hint", HINT_ACTION, str(session_id)),)


def question_card(
    question: Question, session_id: int | None = None, time_limit_minutes: int | None = None
) -> Card:
    hint = " **Hint** (or `/quiz hint`) shows a key point." if question.key_points else ""
    fields = [Field("Topic", question.topic, inline=True)]
    footer = f"Answer here, as you would in an interview.{hint} `/quiz practice stop` ends it."
    if time_limit_minutes is not None:
        fields.append(Field("Time", f"{time_limit_minutes} min to answer", inline=True))
        moving_on = "the follow-ups" if question.follow_ups else "the outline"
        footer = f"{footer} When the time is up, we move on to {moving_on}."
    return Card(
        title="Practice question",
        body=question.question,
        fields=tuple(fields),
        footer=footer,
        buttons=hint_buttons(question, session_id),
        kind=CardKind.QUESTION,
    )


def follow_up_card(
    question: Question,
    number: int,
    session_id: int | None = None,
    *,
    lead: str = "",
    answered_in: str = "",
) -> Card:
    """Follow-up ``number``; ``lead`` goes before it ("Time's up."), ``answered_in`` is how
    long a timed question took to answer ("4 min 12 s of 10 min")."""
    fields = (Field("Answered in", answered_in, inline=True),) if answered_in else ()
    ask = question.follow_ups[number - 1].ask
    return Card(
        title=f"Follow-up {number} of {len(question.follow_ups)}",
        body=f"{lead}\n\n{ask}" if lead else ask,
        fields=fields,
        footer="Answer here.",
        buttons=hint_buttons(question, session_id),
        kind=CardKind.FOLLOW_UPS,
    )


COACH_PROBE_TITLE = "Coach's follow-up"


def coach_probe_card(probe: str) -> Card:
    """The answer coach's own follow-up (written by the operator's model), after the pack's:
    marked as the coach's, not the pack's."""
    return Card(
        title=COACH_PROBE_TITLE,
        body=f"Coach's follow-up: {probe}",
        footer="Asked by the answer coach on a key point your answer missed. Answer here;"
        " `/quiz coach probe off` stops these.",
        kind=CardKind.FOLLOW_UPS,
    )


def hint_card(question: Question, number: int, left: timedelta | None = None) -> Card:
    """Key point ``number`` (1-based) of the question, revealed as a hint; ``left``: the
    time a timed question still has."""
    total = len(question.key_points)
    clock = f" {show_span(left)} left to answer." if left is not None else ""
    return Card(
        title=f"Hint {number} of {total}",
        body=question.key_points[number - 1],
        footer=f'With a hint taken, the best grade is "good".{clock}',
        kind=CardKind.INFO,
    )


def last_minute_card(question: Question) -> Card:
    moving_on = "the follow-ups" if question.follow_ups else "the outline"
    return Card(
        title="1 minute left",
        body=f"Wrap up your answer: in a minute we move on to {moving_on}, as an interviewer"
        " would.",
        kind=CardKind.INFO,
    )


def outline_card(question: Question, session_id: int, lead: str = "") -> Card:
    """The outline with the key points and the four grade buttons of this session;
    ``lead`` goes before it ("Time's up.")."""
    outline = cards.outline_card(question)
    buttons = tuple(
        Button(grade.word.title(), cards.grade_action(grade), practice_value(session_id))
        for grade in Grade
    )
    return Card(
        title=outline.title,
        body=f"{lead}\n\n{outline.body}" if lead else outline.body,
        footer=(
            f"Grade your answers against the key points: the buttons or `/quiz grade {WORDS}`. "
            "It decides when this question comes back for you."
        ),
        buttons=buttons,
        kind=CardKind.OUTLINE,
    )


def graded_card(
    grade: Grade, due: datetime, timezone: str, session_id: int, note: str = ""
) -> Card:
    return Card(
        title=f"Practice graded: {grade.word}",
        body=(
            note + f"This question comes back for you on {kernel_cards.day_text(due, timezone)}. "
            "Next question: the button, or `/quiz practice` right here."
        ),
        buttons=(Button("Next question", NEXT_ACTION, str(session_id)),),
        kind=CardKind.INFO,
    )


def waiting_for_grade() -> Card:
    return kernel_cards.info(
        "Grade first", f"Grade your answers with the buttons above or `/quiz grade {WORDS}`."
    )


def help_card() -> Card:
    return kernel_cards.info("Practice", HELP_TEXT)
