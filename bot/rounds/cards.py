"""A round's cards (question, follow-ups, outline with its buttons) and the channel's
leaderboard and stats."""

from __future__ import annotations

from collections.abc import Sequence

from bot.kernel.cards import channel_status, info, percent, plural
from bot.kernel.grades import GRADE_WORDS, Grade
from bot.kernel.models import ChannelSettings, ChannelStats, LeaderboardRow, Round
from bot.kernel.render import Button, Card, CardKind, Field
from bot.kernel.scoring import Period, ScoringRules
from questions.pack import Question

REVEAL_ACTION = "reveal"
ANSWER_ACTION = "answer"  # blind mode: opens the answer form
CHECKLIST_ACTION = "checklist"  # under the outline: tick the key points one's answer covered
REVIEW_ACTION = "review_answer"  # under the outline (a round) or a blind answer (an answer)
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
    return f"Question #{round_.number} · {question.topic}"[:THREAD_TITLE_LIMIT]


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
        if question.key_points:
            buttons += (Button("Tick key points", CHECKLIST_ACTION, str(round_id)),)
        buttons += (Button("Review an answer", REVIEW_ACTION, f"r{round_id}"),)
        ticks = " or tick the key points you covered (`/quiz covered N...`)" * bool(
            question.key_points
        )
        footer = (
            "Grade your answer against the key points: the buttons or "
            f"`/quiz grade {'|'.join(GRADE_WORDS)}`{ticks} (only you see it). "
            "It decides when this question comes back for you. Review a teammate's answer:"
            " `/quiz rate`."
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


def leaderboard_card(period: Period, rows: Sequence[LeaderboardRow]) -> Card:
    heading = {Period.WEEK: "this week", Period.MONTH: "this month", Period.ALL: "all time"}
    if not rows:
        return info(f"Leaderboard — {heading[period]}", "No answers yet. Be the first!")
    lines = [f"{row.rank}. {row.member_name} — {row.points} pts ({_earned(row)})" for row in rows]
    return Card(
        title=f"Leaderboard — {heading[period]}",
        body="\n".join(lines),
        footer=points_rule(ScoringRules()),
        kind=CardKind.INFO,
    )


def points_rule(rules: ScoringRules) -> str:
    """How points are earned, as the leaderboard says under its lines."""
    return (
        f"A first answer earns {rules.answer} (+{rules.before_reveal_bonus} before the reveal),"
        f" each 👍 +{rules.per_vote} (up to {rules.max_votes}), and up to as much again for"
        " the key points teammates' reviews judged it covered (your own ticks add none)."
    )


def _earned(row: LeaderboardRow) -> str:
    """ "3 answers, 12 for quality": what the points came from."""
    quality = f", {row.quality_points} for quality" if row.quality_points else ""
    return f"{plural(row.answers, 'answer')}{quality}"


def stats_card(
    channel: ChannelSettings,
    stats: ChannelStats,
    weakest: Sequence[tuple[str, float]] = (),
    *,
    for_admin: bool = False,
    coach: tuple[int, int] | None = None,
    agreement: str | None = None,
    memory: str | None = None,
) -> Card:
    """The channel's figures; ``for_admin`` (privately), also the messages not sent yet and
    what the answer coach spent this month (``coach``: requests and tokens) and how its
    ticks compare with teammates' reviews (``agreement``); ``memory``: which FSRS
    parameters the memory model has."""
    fields = [
        Field("Rounds", str(stats.rounds), inline=True),
        Field("Answers (1 per member per round)", str(stats.answers), inline=True),
        Field("Members", str(stats.members), inline=True),
        Field("Votes", str(stats.votes), inline=True),
        Field("Revealed", str(stats.revealed_rounds), inline=True),
        Field("Status", channel_status(channel), inline=True),
    ]
    if for_admin and (stats.pending_actions or stats.failed_actions):
        waiting = f"{stats.pending_actions} waiting, {stats.failed_actions} failed"
        fields.append(Field("Messages not sent yet (admins)", waiting))
    if for_admin and coach is not None:
        requests, tokens = coach
        fields.append(
            Field(
                "Answer coach this month (workspace, admins)",
                f"{requests} requests, {tokens} tokens",
            )
        )
    if for_admin and agreement is not None:
        fields.append(Field("Answer coach against teammates' reviews (admins)", agreement))
    if weakest:
        topics = ", ".join(f"{topic} {percent(recall)}" for topic, recall in weakest)
        fields.append(Field("Weakest topics (team recall expected in 30 days)", topics))
    if memory is not None:
        fields.append(Field("Memory model parameters", memory))
    return Card(title="Channel stats", fields=tuple(fields), kind=CardKind.INFO)
