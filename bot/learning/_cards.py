"""The learning loop's cards: a grade recorded, the member's mastery, their goal."""

from __future__ import annotations

from datetime import date, datetime

from bot.away.cards import away_field
from bot.kernel.cards import day_text, info, percent, plural
from bot.kernel.grades import GRADE_WORDS, Grade
from bot.kernel.render import Card, CardKind, Field
from bot.kernel.scoring import Streak
from bot.learning.service import Mastery


def current_grade_card(round_number: int, grade: Grade | None) -> Card:
    words = "|".join(GRADE_WORDS)
    if grade is None:
        return info(
            f"Round #{round_number}: not graded yet",
            f"After the reveal, grade your answer with `/quiz grade {words}`.",
        )
    return info(
        f"Round #{round_number}: you graded it {grade.word}",
        f"Change it with `/quiz grade {words}`.",
    )


def graded_card(
    round_number: int, grade: Grade, replaced: Grade | None, due: datetime, timezone: str
) -> Card:
    """The private confirmation of a grade: what was recorded and when the question returns."""
    if replaced is None or replaced == grade:
        title = f"Round #{round_number} graded: {grade.word}"
    else:
        title = f"Round #{round_number}: grade changed from {replaced.word} to {grade.word}"
    return info(
        title,
        f"This question comes back for you on {day_text(due, timezone)}. Points are not affected.",
    )


def me_card(
    name: str,
    points: int,
    answers: int,
    rank: int | None,
    streak: Streak,
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
        Field("Streak", f"{streak.current} (best {streak.best})", inline=True),
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
    nearest = mastery.next_review
    when = day_text(nearest, timezone) if nearest else "—"
    on = day_text(mastery.target, timezone)
    return [
        Field(f"Mastery per topic (expected recall on {on})", topics),
        Field("Due for review", str(mastery.due), inline=True),
        Field("Next review", when, inline=True),
    ]


def goal_card(goal: date | None, now: datetime) -> Card:
    if goal is None:
        return info(
            "No goal set",
            "Practice aims at your recall 30 days ahead. Set an interview date with "
            "`/quiz goal YYYY-MM-DD`.",
        )
    days = (goal - now.date()).days
    return info(
        f"Goal: {goal:%a %d %b %Y}",
        f"Practice is chosen for your recall on that day ({plural(days, 'day')} away). "
        "`/quiz goal off` clears it.",
    )
