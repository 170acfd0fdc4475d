"""The cards the quiz shows: round messages and command answers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.models import ChannelSettings, ChannelStats, LeaderboardRow, Round
from bot.render import Button, Card, CardKind, Field
from bot.scoring import Period, Streak
from questions.pack import Pack, Question

REVEAL_ACTION = "reveal"
THREAD_TITLE_LIMIT = 90


def question_card(round_: Round, question: Question, reveal_emoji: str) -> Card:
    return Card(
        title=f"Question #{round_.number}",
        body=question.question,
        fields=(Field("Topic", question.topic, inline=True),),
        footer=(
            f"Answer in the thread. React {reveal_emoji} or press Reveal "
            "to see the sample answer outline."
        ),
        buttons=(Button("Reveal outline", REVEAL_ACTION, str(round_.id)),),
        kind=CardKind.QUESTION,
    )


def thread_title(round_: Round, question: Question) -> str:
    return f"Round {round_.number} · {question.topic}"[:THREAD_TITLE_LIMIT]


def follow_ups_card(question: Question) -> Card:
    return Card(
        title="Follow-up questions",
        bullets=question.follow_ups,
        footer="The interviewer would ask next: answer them in this thread too.",
        kind=CardKind.FOLLOW_UPS,
    )


KEY_POINTS_HEADING = "Did you cover…"


def outline_card(question: Question) -> Card:
    """The outline, then the question's key points as a checklist to grade oneself against."""
    body = question.outline
    if question.key_points:
        checklist = "\n".join(f"☐ {point}" for point in question.key_points)
        body = f"{body}\n\n{KEY_POINTS_HEADING}\n{checklist}"
    return Card(title="Sample answer outline", body=body, kind=CardKind.OUTLINE)


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
) -> Card:
    topics = ", ".join(f"{t} {n}" for t, n in sorted(per_topic.items())) or "none yet"
    return Card(
        title=f"{name} in this channel",
        fields=(
            Field("Points", str(points), inline=True),
            Field("Rank", f"#{rank}" if rank else "—", inline=True),
            Field("Answers", str(answers), inline=True),
            Field("Streak", f"{streak.current} (best {streak.best})", inline=True),
            Field("Answers per topic", topics),
        ),
        kind=CardKind.INFO,
    )


def stats_card(channel: ChannelSettings, stats: ChannelStats) -> Card:
    fields = [
        Field("Rounds", str(stats.rounds), inline=True),
        Field("Answers", str(stats.answers), inline=True),
        Field("Members", str(stats.members), inline=True),
        Field("Votes", str(stats.votes), inline=True),
        Field("Revealed", str(stats.revealed_rounds), inline=True),
        Field("Status", _status(channel), inline=True),
    ]
    if stats.pending_actions or stats.failed_actions:
        fields.append(
            Field("Outbox", f"{stats.pending_actions} pending, {stats.failed_actions} failed")
        )
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


def packs_card(packs: Sequence[Pack]) -> Card:
    lines = [
        f"{p.id} — {p.title} ({_plural(len(p.questions), 'question')}; "
        f"topics: {', '.join(p.topics())})"
        for p in packs
    ]
    return info("Question packs", "\n".join(lines) or "No packs are loaded.")


def _status(channel: ChannelSettings) -> str:
    if channel.disabled_reason:
        return f"disabled: {channel.disabled_reason}"
    return "paused" if channel.paused else "active"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
