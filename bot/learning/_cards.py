"""The learning loop's cards: a grade recorded, the member's mastery, their goal."""

from __future__ import annotations

from datetime import date, datetime

from bot.away.cards import away_field
from bot.kernel.cards import day_text, info, percent, plural
from bot.kernel.grades import GRADE_WORDS, Grade
from bot.kernel.render import Card, CardKind, Field
from bot.kernel.scoring import Streak
from bot.learning.next_review import next_review_text
from bot.learning.practice_policy import no_goal_horizons
from bot.learning.service import Mastery

INLINE_STREAK = 20  # a streak with its reason gets a line of its own


def current_grade_card(round_number: int, grade: Grade | None) -> Card:
    words = "|".join(GRADE_WORDS)
    if grade is None:
        return info(
            f"Question #{round_number}: not graded yet",
            f"After the reveal, grade your answer with `/quiz grade {words}`.",
        )
    return info(
        f"Question #{round_number}: you graded it {grade.word}",
        f"Change it with `/quiz grade {words}`.",
    )


def graded_card(
    round_number: int,
    grade: Grade,
    replaced: Grade | None,
    due: datetime,
    timezone: str,
    *,
    stood_in: str | None = None,
) -> Card:
    """The private confirmation of a grade: what was recorded and when the question returns.
    ``stood_in``: whose grade ``replaced`` was when it stood in for the member's own ("your
    reviewers' score", "the coach's grade"), which is no change of the member's grade."""
    returns = f"This question comes back for you on {day_text(due, timezone)}."
    if replaced is not None and stood_in:
        return info(
            f"Question #{round_number} graded: {grade.word}",
            f"Your own grade replaces {stood_in} ({replaced.word}), which stood in"
            f" for it. {returns} Points are not affected.",
        )
    if replaced is None or replaced == grade:
        title = f"Question #{round_number} graded: {grade.word}"
    else:
        title = f"Question #{round_number}: grade changed from {replaced.word} to {grade.word}"
    return info(title, f"{returns} Points are not affected.")


def streak_text(streak: Streak, unscheduled: int, *, scheduled: bool) -> str:
    """A member's streak, saying why answers do not add to it where some do not: a streak
    counts scheduled questions, so `/quiz now` answers are extra practice."""
    if not scheduled:
        return (
            f"{streak.current}: this channel has no schedule, and a streak counts scheduled"
            " questions answered in a row"
        )
    shown = f"{streak.current} (best {streak.best})"
    if unscheduled == 0:
        return shown
    extra = (
        "your 1 answer to a question posted with `/quiz now` is extra practice and neither"
        " adds to it nor breaks it"
        if unscheduled == 1
        else f"your {unscheduled} answers to questions posted with `/quiz now` are extra"
        " practice and neither add to it nor break it"
    )
    return f"{shown}: it counts scheduled questions answered in a row; {extra}"


def me_card(
    name: str,
    points: int,
    answers: int,
    rank: int | None,
    streak: str,
    per_topic: dict[str, int],
    mastery: Mastery | None = None,
    timezone: str = "UTC",
    away_until: date | None = None,
) -> Card:
    topics = ", ".join(f"{t} {n}" for t, n in sorted(per_topic.items())) or "none yet"
    fields = [
        Field("Points", str(points), inline=True),
        Field("Rank", f"#{rank}" if rank else "—", inline=True),
        Field("Answers", str(answers), inline=True),
        Field("Streak", streak, inline=len(streak) < INLINE_STREAK),
        Field("Answers per topic", topics),
    ]
    if away_until is not None:
        fields.append(away_field(away_until))
    if mastery is not None:
        fields += _mastery_fields(mastery, timezone)
    return Card(title=f"{name} in this channel", fields=tuple(fields), kind=CardKind.INFO)


def mastery_card(
    name: str, mastery: Mastery, timezone: str, away_until: date | None = None
) -> Card:
    """``/quiz me`` outside a quiz channel: the member's memory, from practice and rounds."""
    away = [away_field(away_until)] if away_until is not None else []
    return Card(
        title=f"{name}: your practice",
        fields=(*away, *_mastery_fields(mastery, timezone)),
        kind=CardKind.INFO,
    )


def _mastery_fields(mastery: Mastery, timezone: str) -> list[Field]:
    if not mastery.per_topic:
        return [Field("Mastery", "grade your answers after the reveal to see it here")]
    topics = ", ".join(f"{t} {percent(r)}" for t, r in mastery.per_topic.items())
    when = next_review_text(mastery, timezone)
    on = day_text(mastery.target, timezone)
    fields = [
        Field(f"Mastery per topic (expected recall on {on})", topics),
        Field("Due for review", str(mastery.due), inline=True),
        Field("Next review", when, inline=True),
    ]
    if mastery.first_sight is not None:
        # what practice counts on for a question never graded, learned from first answers
        fields.append(Field("Known on first sight", percent(mastery.first_sight), inline=True))
    return fields


def goal_card(goal: date | None, now: datetime) -> Card:
    if goal is None:
        return info(
            "No goal set",
            f"Practice looks {no_goal_horizons()} days ahead, rolling on with every day. Set an"
            " interview date with `/quiz goal YYYY-MM-DD` to aim at that day instead.",
        )
    days = (goal - now.date()).days
    return info(
        f"Goal: {goal:%a %d %b %Y}",
        f"Practice is chosen for your recall on that day ({plural(days, 'day')} away). "
        "`/quiz goal off` clears it.",
    )
