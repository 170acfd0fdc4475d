"""The coach's cards: the one the channel is shown when it is turned on, and the member's
private ones (their ticks with the quotes; the coach unavailable; the budget spent)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.coach.verification import VerifiedTick
from bot.kernel.cards import info, plural
from bot.kernel.grades import Grade
from bot.kernel.render import Button, Card
from bot.reviews.rubric import grade_from_coverage

ACCEPT_ACTION = "coach_accept"
EDIT_ACTION = "coach_edit"
DISMISS_ACTION = "coach_dismiss"
COACH_ACTIONS = frozenset({ACCEPT_ACTION, EDIT_ACTION, DISMISS_ACTION})
QUOTE_SHOWN = 200  # characters of a quote on the card


def turned_on_card(reader: str) -> Card:
    return info(
        "The answer coach is on in this channel",
        f"From now on {reader} reads each member's first answer here (and the workspace's"
        " private practice answers) and proposes, to its author only, which key points it"
        " covers, each with a quote from the answer. It is"
        " sent the question, its key points and the answer: no name, no id. Nothing counts"
        " until the author accepts it. `/quiz coach off` keeps your answers from it.",
    )


def _quote(text: str) -> str:
    line = " ".join(text.split())
    shown = line if len(line) <= QUOTE_SHOWN else line[: QUOTE_SHOWN - 1] + "…"
    return f"“{shown}”"


def _title(number: int | None) -> str:
    return "The coach read your answer" + (f" to question #{number}" if number else "")


def coach_card(
    *,
    assessment_id: int,
    number: int | None,
    key_points: Sequence[str],
    ticks: Sequence[VerifiedTick],
    dropped: int,
    model: str,
) -> Card:
    """The member's card: each verified tick with its quote, the key points not found, the
    grade the checklist's mapping proposes, and what they may do with it."""
    found = {tick.point: tick.quote for tick in ticks}
    covered = [f"✓ {p}. {key_points[p - 1]} — {_quote(q)}" for p, q in sorted(found.items())]
    missed = [f"✗ {n}. {point}" for n, point in enumerate(key_points, 1) if n not in found]
    grade = grade_from_coverage(len(found), len(key_points))
    lines = [*covered, *missed]
    body = (
        f"It found {len(found)} of {len(key_points)} key points, each with a quote from your"
        f" answer: that proposes {grade.word}."
    )
    footer = (
        f"Read by {model}; nothing is recorded until you accept or edit. Typed: `/quiz coach"
        f" accept {assessment_id}`, `/quiz coach edit {assessment_id} 1 3`, `/quiz coach"
        f" dismiss {assessment_id}`."
    )
    if dropped:
        left_out = plural(dropped, "tick")
        footer += f" Left out: {left_out} it proposed without evidence in your answer."
    value = str(assessment_id)
    return Card(
        title=_title(number),
        body=body,
        bullets=tuple(lines),
        footer=footer,
        buttons=(
            Button("Accept", ACCEPT_ACTION, value),
            Button("Edit ticks", EDIT_ACTION, value),
            Button("Dismiss", DISMISS_ACTION, value),
        ),
    )


def unavailable_card(number: int | None, *, practice: bool = False) -> Card:
    how = (
        "with the grade buttons under the outline"
        if practice
        else "as always: the grade buttons under the outline, the key point checklist, or"
        " `/quiz grade`"
    )
    return info(
        "The coach is unavailable",
        f"It could not read your answer{f' to question #{number}' if number else ''}. Grade"
        f" it yourself {how}.",
    )


def practice_card(
    *,
    card: str,
    key_points: Sequence[str],
    ticks: Sequence[VerifiedTick],
    dropped: int,
    model: str,
) -> Card:
    """The member's card on a practice answer: the same checklist with quotes, after the
    outline, and the channel card's buttons (``card`` names it); its grade is their own
    practice grade, never a channel's points."""
    found = {tick.point: tick.quote for tick in ticks}
    covered = [f"✓ {p}. {key_points[p - 1]} — {_quote(q)}" for p, q in sorted(found.items())]
    missed = [f"✗ {n}. {point}" for n, point in enumerate(key_points, 1) if n not in found]
    grade = grade_from_coverage(len(found), len(key_points))
    footer = (
        f"Read by {model}; nothing is recorded until you accept or edit (or grade with the"
        f" outline's buttons). Typed: `/quiz coach accept {card}`, `/quiz coach edit {card}"
        f" 1 3`, `/quiz coach dismiss {card}`."
    )
    if dropped:
        footer += f" Left out: {plural(dropped, 'tick')} it proposed without evidence."
    return Card(
        title="The coach read your practice answer",
        body=(
            f"It found {len(found)} of {len(key_points)} key points, each with a quote from"
            f" your answer: that proposes {grade.word}."
        ),
        bullets=(*covered, *missed),
        footer=footer,
        buttons=(
            Button("Accept", ACCEPT_ACTION, card),
            Button("Edit ticks", EDIT_ACTION, card),
            Button("Dismiss", DISMISS_ACTION, card),
        ),
    )


def over_budget_card(what: str, resets: datetime, now: datetime) -> Card:
    hours = max(1, round((resets - now).total_seconds() / 3600))
    return info(
        "The coach is resting",
        f"{what[0].upper()}{what[1:]} is used up: it reads answers again at"
        f" {resets:%H:%M} UTC (in about {plural(hours, 'hour')}). Grade this one yourself:"
        " the grade buttons under the outline, the key point checklist, or `/quiz grade`.",
    )


def decided_card(grade: Grade, points: int, total: int, *, edited: bool) -> Card:
    how = "your edited ticks" if edited else "the coach's ticks"
    return info(
        "Recorded",
        f"{plural(points, 'key point')} of {total} from {how}: your grade is {grade.word}.",
    )


def dismissed_card() -> Card:
    return info(
        "Dismissed",
        "Nothing of the coach's reading was recorded. Grade your answer yourself whenever you"
        " like.",
    )
