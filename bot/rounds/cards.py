"""The cards the quiz shows: round messages and command answers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from zoneinfo import ZoneInfo

from bot.kernel.grades import GRADE_WORDS, Grade
from bot.kernel.models import ChannelSettings, ChannelStats, LeaderboardRow, Round
from bot.kernel.render import Button, Card, CardKind, Field
from bot.kernel.scoring import Period, Streak
from bot.learning.service import Mastery
from questions.pack import Pack, Question

REVEAL_ACTION = "reveal"
ANSWER_ACTION = "answer"  # blind mode: opens the answer form
GRADE_ACTION_PREFIX = "grade_"  # one action per grade: Slack wants distinct ids in a block
THREAD_TITLE_LIMIT = 90

# Round ids are SQLite integers (at most 2**63 - 1): 18 digits always fit.
MAX_ROUND_ID_DIGITS = 18


def round_id_from(value: str) -> int | None:
    """A Reveal button's value as a round id; None for anything else (a sign, a huge
    number: the platform sends back whatever the button carries)."""
    if value.isascii() and value.isdigit() and len(value) <= MAX_ROUND_ID_DIGITS:
        return int(value)
    return None


def question_card(
    round_: Round, question: Question, reveal_emoji: str, *, blind: bool = False
) -> Card:
    """The question; in blind mode it says how to answer privately and carries an Answer
    button (the answer form)."""
    reveal = Button("Reveal outline", REVEAL_ACTION, str(round_.id))
    if blind:
        how = (
            "Answer blind: press Answer or type `/quiz answer TEXT` (only you see it; change it"
            " until the reveal). Every answer is posted in the thread at the reveal."
        )
        buttons: tuple[Button, ...] = (Button("Answer", ANSWER_ACTION, str(round_.id)), reveal)
    else:
        how, buttons = "Answer in the thread.", (reveal,)
    return Card(
        title=f"Question #{round_.number}",
        body=question.question,
        fields=(Field("Topic", question.topic, inline=True),),
        footer=f"{how} React {reveal_emoji} or press Reveal to see the sample answer outline.",
        buttons=buttons,
        kind=CardKind.QUESTION,
    )


def thread_title(round_: Round, question: Question) -> str:
    return f"Round {round_.number} · {question.topic}"[:THREAD_TITLE_LIMIT]


def follow_ups_card(question: Question) -> Card:
    return Card(
        title="Follow-up questions",
        bullets=question.follow_up_asks,
        footer="The interviewer would ask next: answer them in this thread too.",
        kind=CardKind.FOLLOW_UPS,
    )


KEY_POINTS_HEADING = "Did you cover…"
CORRECTIONS_HEADING = "Corrections to the outline"
FOLLOW_UP_NOTES_HEADING = "The follow-ups: what a good answer contains"


def outline_card(question: Question, round_id: int | None = None) -> Card:
    """The outline, its corrections, then the question's key points as a checklist to grade
    oneself against and the follow-ups' reference notes; for a round, the grade buttons."""
    body = question.outline
    if question.corrections:
        facts = "\n".join(f"• {c.fact} (Source: {c.source})" for c in question.corrections)
        body = f"{body}\n\n{CORRECTIONS_HEADING}\n{facts}"
    if question.key_points:
        checklist = "\n".join(f"☐ {point}" for point in question.key_points)
        body = f"{body}\n\n{KEY_POINTS_HEADING}\n{checklist}"
    noted = [
        f"Follow-up {number}: {follow_up.ask}\n" + "\n".join(f"– {n}" for n in follow_up.note_lines)
        for number, follow_up in enumerate(question.follow_ups, start=1)
        if follow_up.note_lines
    ]
    if noted:
        body = f"{body}\n\n{FOLLOW_UP_NOTES_HEADING}\n" + "\n".join(noted)
    buttons: tuple[Button, ...] = ()
    footer = ""
    if round_id is not None:
        buttons = tuple(
            Button(grade.word.title(), grade_action(grade), str(round_id)) for grade in Grade
        )
        footer = (
            "Grade your answer against the key points: the buttons or "
            f"`/quiz grade {'|'.join(GRADE_WORDS)}` (only you see it). "
            "It decides when this question comes back for you."
        )
    return Card(
        title="Sample answer outline",
        body=body,
        footer=footer,
        buttons=buttons,
        kind=CardKind.OUTLINE,
    )


def grade_action(grade: Grade) -> str:
    return f"{GRADE_ACTION_PREFIX}{grade.word}"


def grade_of_action(action: str) -> Grade | None:
    """The grade a grade button stands for; None for any other action."""
    if not action.startswith(GRADE_ACTION_PREFIX):
        return None
    try:
        return Grade.from_word(action.removeprefix(GRADE_ACTION_PREFIX))
    except ValueError:
        return None


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
        f"This question comes back for you on {_day(due, timezone)}. Points are not affected.",
    )


def info(title: str, body: str = "") -> Card:
    return Card(title=title, body=body, kind=CardKind.INFO)


def info_fields(title: str, fields: Sequence[Field]) -> Card:
    return Card(title=title, fields=tuple(fields), kind=CardKind.INFO)


def error(body: str) -> Card:
    return Card(title="Sorry", body=body, kind=CardKind.ERROR)


def help_card(usages: Sequence[tuple[str, str, bool]], note: str = "") -> Card:
    """One line per subcommand: (form, summary, admin only), members' commands first."""
    lines = [note] if note else []
    lines += [f"`{form}` — {summary}" for form, summary, admin in usages if not admin]
    lines += ["", "Admins:"]
    lines += [f"`{form}` — {summary}" for form, summary, admin in usages if admin]
    return Card(title="quizbot commands", body="\n".join(lines), kind=CardKind.INFO)


def leaderboard_card(period: Period, rows: Sequence[LeaderboardRow]) -> Card:
    heading = {Period.WEEK: "this week", Period.MONTH: "this month", Period.ALL: "all time"}
    if not rows:
        return info(f"Leaderboard — {heading[period]}", "No answers yet. Be the first!")
    lines = [
        f"{row.rank}. {row.member_name} — {row.points} pts ({_plural(row.answers, 'answer')})"
        for row in rows
    ]
    return info(f"Leaderboard — {heading[period]}", "\n".join(lines))


def me_card(
    name: str,
    points: int,
    answers: int,
    rank: int | None,
    streak: Streak,
    per_topic: dict[str, int],
    mastery: Mastery | None = None,
    timezone: str = "UTC",
) -> Card:
    topics = ", ".join(f"{t} {n}" for t, n in sorted(per_topic.items())) or "none yet"
    fields = [
        Field("Points", str(points), inline=True),
        Field("Rank", f"#{rank}" if rank else "—", inline=True),
        Field("Answers", str(answers), inline=True),
        Field("Streak", f"{streak.current} (best {streak.best})", inline=True),
        Field("Answers per topic", topics),
    ]
    if mastery is not None:
        fields += _mastery_fields(mastery, timezone)
    return Card(title=f"{name} in this channel", fields=tuple(fields), kind=CardKind.INFO)


def mastery_card(name: str, mastery: Mastery, timezone: str) -> Card:
    """``/quiz me`` outside a quiz channel: the member's memory, from practice and rounds."""
    return Card(
        title=f"{name}: your practice",
        fields=tuple(_mastery_fields(mastery, timezone)),
        kind=CardKind.INFO,
    )


def _mastery_fields(mastery: Mastery, timezone: str) -> list[Field]:
    if not mastery.per_topic:
        return [Field("Mastery", "grade your answers after the reveal to see it here")]
    topics = ", ".join(f"{t} {_percent(r)}" for t, r in mastery.per_topic.items())
    nearest = mastery.next_review
    when = _day(nearest, timezone) if nearest else "—"
    on = _day(mastery.target, timezone)
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
        f"Practice is chosen for your recall on that day ({_plural(days, 'day')} away). "
        "`/quiz goal off` clears it.",
    )


def _percent(fraction: float) -> str:
    return f"{round(fraction * 100)}%"


def day_text(moment: datetime, timezone: str) -> str:
    """A date as cards show it: "Tue 01 Dec 2026"."""
    return _day(moment, timezone)


def _day(moment: datetime, timezone: str) -> str:
    return moment.astimezone(ZoneInfo(timezone)).strftime("%a %d %b %Y")


def stats_card(
    channel: ChannelSettings,
    stats: ChannelStats,
    weakest: Sequence[tuple[str, float]] = (),
) -> Card:
    fields = [
        Field("Rounds", str(stats.rounds), inline=True),
        Field("Answers (1 per member per round)", str(stats.answers), inline=True),
        Field("Members", str(stats.members), inline=True),
        Field("Votes", str(stats.votes), inline=True),
        Field("Revealed", str(stats.revealed_rounds), inline=True),
        Field("Status", _status(channel), inline=True),
    ]
    if stats.pending_actions or stats.failed_actions:
        fields.append(
            Field("Outbox", f"{stats.pending_actions} pending, {stats.failed_actions} failed")
        )
    if weakest:
        topics = ", ".join(f"{topic} {_percent(recall)}" for topic, recall in weakest)
        fields.append(Field("Weakest topics (team recall expected in 30 days)", topics))
    return Card(title="Channel stats", fields=tuple(fields), kind=CardKind.INFO)


def topics_card(all_topics: Iterable[str], enabled: tuple[str, ...] | None) -> Card:
    lines = [
        f"{'✅' if enabled is None or topic in enabled else '▫️'} {topic}" for topic in all_topics
    ]
    return info("Topics (✅ enabled)", "\n".join(lines) or "No topics: no packs are loaded.")


def schedule_card(channel: ChannelSettings, next_post: datetime | None) -> Card:
    zone = ZoneInfo(channel.timezone)
    when = next_post.astimezone(zone).strftime("%a %d %b %Y %H:%M %Z") if next_post else "—"
    return Card(
        title="Schedule",
        fields=(
            Field("Schedule", channel.schedule or "none", inline=True),
            Field("Timezone", channel.timezone, inline=True),
            Field("Status", _status(channel), inline=True),
            Field("Next question", when),
        ),
        kind=CardKind.INFO,
    )


def packs_card(packs: Sequence[Pack], own_topics: Sequence[str] | None = None) -> Card:
    """The loaded packs, then the workspace's own pack (approved suggestions, in the
    database) when asked from a workspace: ``own_topics`` has one entry per question."""
    lines = [
        f"{p.id} — {p.title} ({_plural(len(p.questions), 'question')}; "
        f"topics: {', '.join(p.topics())})"
        for p in packs
    ]
    if own_topics is not None:
        count = (
            f"{_plural(len(own_topics), 'question')}; topics: {', '.join(sorted(set(own_topics)))}"
            if own_topics
            else "none yet: `/quiz suggest` one"
        )
        lines.append(f"this workspace — its own questions ({count})")
    return info("Question packs", "\n".join(lines) or "No packs are loaded.")


def _status(channel: ChannelSettings) -> str:
    if channel.disabled_reason:
        return f"disabled: {channel.disabled_reason}"
    return "paused" if channel.paused else "active"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
