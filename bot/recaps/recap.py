"""The weekly recap: which week a slot reports, the figures of that week, and its card.

A recap fired at ``slot`` reports the seven days before it, in the channel's timezone
(by default Friday 16:00 to Friday 16:00), so every round is in exactly one recap. It
is recorded with the outbox key ``recap:<channel>:<ISO week>`` and built here from the
stored rounds, answers and grades when the outbox sends it: nothing rendered is stored.
"""

from __future__ import annotations

import statistics
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from itertools import takewhile
from zoneinfo import ZoneInfo

from bot.away.periods import AwayPeriod, excused_rounds
from bot.away.store import AwayStore
from bot.bank.catalog import workspace_of
from bot.bank.store import Workspace
from bot.kernel.models import ChannelSettings
from bot.kernel.render import Card, CardKind, Field
from bot.kernel.scoring import streak
from bot.learning.team_memory import TeamMemory
from bot.recaps.chart_data import (
    STANDOUT_POINTS,
    TREND_WEEKS,
    DayParticipation,
    RankedTopic,
    RecallPoint,
    RecapChart,
    Standing,
    TopicMastery,
    mastery_rows,
    percent,
    weeks_so_far,
)
from bot.recaps.store import RecapStore, StreakRounds, WeekAnswer
from bot.scheduling.schedule_spec import ScheduleError, parse_schedule
from bot.scheduling.skipped_days import SkippedDayStore
from bot.scheduling.slot_arithmetic import slots_after

WEEK = timedelta(days=7)
TOP_ANSWERS = 3
STREAK_LEADERS = 3
QUALITY_LEADERS = 3
TOPICS_SHOWN = 3  # strongest and weakest each, at most
MASTERY_HORIZON = timedelta(days=30)  # the strongest and weakest are forecast this far ahead
EXCERPT_LENGTH = 140
NO_GRADES = "No grades yet."

# The link to an answer: (message id, thread id) -> a URL, or None where the platform has none.
AnswerLink = Callable[[str, str | None], Awaitable[str | None]]


def recap_week(slot: datetime, zone: ZoneInfo) -> str:
    """The ISO week of the slot's local date, e.g. "2026-W48"."""
    year, week, _ = slot.astimezone(zone).isocalendar()
    return f"{year}-W{week:02d}"


def recap_key(channel_id: int, week: str) -> str:
    return f"recap:{channel_id}:{week}"


def chart_key(key: str) -> str:
    """The key a recap's chart is uploaded under, where it goes apart from the text."""
    return f"{key}:chart"


def week_before(slot: datetime, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """[start, slot): the seven local days before the slot (the same wall time a week
    earlier, so a week across a DST change is 167 or 169 hours long)."""
    local = slot.astimezone(zone)
    start = (local.replace(tzinfo=None) - WEEK).replace(tzinfo=zone)
    return start.astimezone(UTC), slot


@dataclass(frozen=True, slots=True)
class TopAnswer:
    """A most-voted answer of the week, as a recap shows it."""

    member_name: str
    excerpt: str
    votes: int
    link: str | None


@dataclass(frozen=True, slots=True)
class Recap:
    """Everything a recap says; its card and its chart are both built from it."""

    title: str
    rounds: int
    members: int
    rounds_before: int
    members_before: int
    top_answers: tuple[TopAnswer, ...]
    streak_leaders: tuple[tuple[str, int], ...]  # (member name, current streak)
    strongest: tuple[TopicMastery, ...]
    weakest: tuple[TopicMastery, ...]
    due_next_week: tuple[tuple[str, int], ...]  # (topic, questions due), most first
    participation: tuple[DayParticipation, ...]  # the week's scheduled days, in order
    recall_trend: tuple[RecallPoint, ...] = ()  # oldest first, the recap's moment last
    mastery_on: date | None = None  # the day strongest and weakest are forecast for
    best_answers: tuple[TopAnswer, ...] = ()  # the week's best answers, in order
    median: float | None = None  # the team's median topic recall (%); None: no grades
    quality_leaders: tuple[tuple[str, int], ...] = ()  # (member name, points for quality)

    @property
    def charted_topics(self) -> tuple[RankedTopic, ...]:
        """The topics the chart shows, strongest first, each marked with its list (a topic
        on both, which :func:`strongest_and_weakest` never makes, once, as strongest)."""
        shown = [RankedTopic(r.topic, r.percent, Standing.STRONGEST) for r in self.strongest]
        shown += [
            RankedTopic(r.topic, r.percent, Standing.WEAKEST)
            for r in self.weakest
            if r not in self.strongest
        ]
        return tuple(sorted(shown, key=lambda row: (-row.percent, row.topic)))


async def build_recap(
    store: RecapStore,
    memory: TeamMemory,
    channel: ChannelSettings,
    slot: datetime,
    link: AnswerLink,
    *,
    skipped_days: SkippedDayStore,
    away: AwayStore,
) -> Recap | None:
    """The recap of the week before ``slot``; None when the week had no round. A skipped
    day is no scheduled day, and a member's rounds of days away excuse their streak."""
    zone = ZoneInfo(channel.timezone)
    start, end = week_before(slot, zone)
    week = await store.week_figures(channel.id, start, end)
    if not week.rounds:
        return None
    before = await store.week_figures(channel.id, *week_before(start, zone))
    workspace = workspace_of(channel.ref)
    topics = mastery_rows(await memory.channel_mastery(channel.id, slot, workspace))
    strongest, weakest = strongest_and_weakest(topics)
    due = await memory.channel_due(channel.id, slot, slot + WEEK, workspace)
    top = await _top_answers(week.answers, link)
    first_day = start.astimezone(zone).date()
    last_day = (end - timedelta(microseconds=1)).astimezone(zone).date()
    streaks = await store.streak_rounds(channel.id, slot)
    skipped = await skipped_days.skipped_days(channel.id, first_day, last_day)
    periods = await away.periods(channel.ref.workspace, streaks.platform_ids.values())
    scheduled_days = _scheduled_days(channel, start, end, zone) - set(skipped)
    return Recap(
        title=f"Weekly recap · {first_day:%d %b} – {last_day:%d %b %Y}",
        rounds=week.rounds,
        members=_members(week.answers),
        rounds_before=before.rounds,
        members_before=_members(before.answers),
        top_answers=top,
        streak_leaders=_streak_leaders(streaks, periods, channel.timezone),
        strongest=strongest,
        weakest=weakest,
        due_next_week=tuple(sorted(due.items(), key=lambda item: (-item[1], item[0]))),
        participation=participation(
            week.answers,
            scheduled_days,
            zone,
            asked={moment.astimezone(zone).date() for moment in week.round_times},
        ),
        recall_trend=await recall_trend(memory, streaks.answered, slot, zone, workspace),
        mastery_on=(slot + MASTERY_HORIZON).astimezone(zone).date(),
        best_answers=await _best_answers(week.answers, link),
        median=median_percent(topics),
        quality_leaders=_quality_leaders(week.answers),
    )


async def recall_trend(
    memory: TeamMemory,
    member_ids: Collection[int],
    slot: datetime,
    zone: ZoneInfo,
    workspace: Workspace | None,
) -> tuple[RecallPoint, ...]:
    """The mean expected recall of the members who answer in the channel, at the recap's
    moment and at the same moment of each of the TREND_WEEKS - 1 weeks before: their own
    cards (private practice counts too) rebuilt from the grades they had given by then."""
    moments = [slot - WEEK * weeks_back for weeks_back in range(TREND_WEEKS - 1, -1, -1)]
    recalls = await memory.members_recall(member_ids, moments, workspace)
    return tuple(
        RecallPoint(moment.astimezone(zone).date(), None if recall is None else percent(recall))
        for moment, recall in zip(moments, recalls, strict=True)
    )


def median_percent(mastery: Sequence[TopicMastery]) -> float | None:
    """The team's median topic recall, in percent (None: no graded topic)."""
    return statistics.median(row.percent for row in mastery) if mastery else None


def strongest_and_weakest(
    mastery: Sequence[TopicMastery],
) -> tuple[tuple[TopicMastery, ...], tuple[TopicMastery, ...]]:
    """The strongest topics (strongest first) and the weakest (weakest first) of topics
    ranked strongest first: those STANDOUT_POINTS or more above, or below, the team's
    median topic, up to TOPICS_SHOWN each. A topic a point from the next is on neither
    list for that point; a lone topic, or topics all close together, stand out from none."""
    median = median_percent(mastery)
    if median is None:
        return (), ()
    strongest = tuple(r for r in mastery if r.percent - median >= STANDOUT_POINTS)
    weakest = tuple(r for r in reversed(mastery) if median - r.percent >= STANDOUT_POINTS)
    return strongest[:TOPICS_SHOWN], weakest[:TOPICS_SHOWN]


def recap_card(recap: Recap) -> Card:
    fields = [Field("Best answers", _top_answers_text(recap.best_answers))] * bool(
        recap.best_answers
    )
    fields += [
        Field("Rounds", _compared(recap.rounds, recap.rounds_before), inline=True),
        Field("Members who answered", _compared(recap.members, recap.members_before), inline=True),
        Field("Most-voted answers", _top_answers_text(recap.top_answers)),
        Field("Points for quality", _quality_text(recap.quality_leaders)),
        Field("Streak leaders", _streaks_text(recap.streak_leaders)),
        Field("Strongest topics", _standing_text(recap.strongest, recap.median, "above")),
        Field("Weakest topics", _standing_text(recap.weakest, recap.median, "below")),
        Field("Due to review next week", _due_text(recap.due_next_week)),
        Field("Members per day", _days_text(recap.participation)),
        Field(f"Expected recall, last {TREND_WEEKS} weeks", trend_text(recap.recall_trend)),
    ]
    return Card(title=recap.title, fields=tuple(fields), kind=CardKind.INFO)


def recap_chart(recap: Recap) -> RecapChart:
    return RecapChart(
        title=recap.title,
        mastery=recap.charted_topics,
        recall_trend=recap.recall_trend,
        participation=recap.participation,
        mastery_on=recap.mastery_on,
        median=recap.median,
    )


# ---------------------------------------------------------------- figures


def _members(answers: Sequence[WeekAnswer]) -> int:
    return len({a.member_id for a in answers})


def participation(
    answers: Sequence[WeekAnswer],
    scheduled: Collection[date],
    zone: ZoneInfo,
    asked: Collection[date] | None = None,
) -> tuple[DayParticipation, ...]:
    """Members who answered on each scheduled day, and on any other day someone answered
    (a /quiz now on a Saturday), in date order: a Friday-to-Friday week's two Fridays are
    two columns, and a day nobody was asked and nobody answered is not one. ``asked``:
    the days a question was posted (None: every day), so that a scheduled day without one
    (the channel paused, the bot down) is marked as such."""
    members: dict[date, set[int]] = {day: set() for day in scheduled}
    for answer in answers:
        members.setdefault(answer.answered_at.astimezone(zone).date(), set()).add(answer.member_id)
    return tuple(
        DayParticipation(day, len(members[day]), asked is None or day in asked)
        for day in sorted(members)
    )


def _scheduled_days(
    channel: ChannelSettings, start: datetime, end: datetime, zone: ZoneInfo
) -> set[date]:
    """The local days of [start, end) with a slot of the channel's schedule as it is now
    (none without a schedule)."""
    if not channel.schedule:
        return set()
    try:
        spec = parse_schedule(channel.schedule)
    except ScheduleError:
        return set()
    slots = takewhile(
        lambda slot: slot < end, slots_after(spec, zone, start - timedelta(microseconds=1))
    )
    return {slot.astimezone(zone).date() for slot in slots}


async def _top_answers(answers: Sequence[WeekAnswer], link: AnswerLink) -> tuple[TopAnswer, ...]:
    voted = sorted(
        (a for a in answers if a.votes > 0), key=lambda a: (-a.votes, a.answered_at, a.member_id)
    )[:TOP_ANSWERS]
    return tuple(
        [
            TopAnswer(a.member_name, excerpt(a.text), a.votes, await link(a.message_id, a.thread))
            for a in voted
        ]
    )


async def _best_answers(answers: Sequence[WeekAnswer], link: AnswerLink) -> tuple[TopAnswer, ...]:
    return tuple(
        [
            TopAnswer(a.member_name, excerpt(a.text), a.votes, await link(a.message_id, a.thread))
            for a in answers
            if a.best
        ]
    )


def _quality_leaders(answers: Sequence[WeekAnswer]) -> tuple[tuple[str, int], ...]:
    """The members whose week's answers earned the most points for quality, most first."""
    earned: dict[int, int] = {}
    names: dict[int, str] = {}
    for answer in answers:
        if answer.quality_points:
            earned[answer.member_id] = earned.get(answer.member_id, 0) + answer.quality_points
            names[answer.member_id] = answer.member_name
    leaders = sorted(earned, key=lambda member: (-earned[member], names[member], member))
    return tuple((names[member], earned[member]) for member in leaders[:QUALITY_LEADERS])


def _streak_leaders(
    rounds: StreakRounds, periods: Mapping[str, Sequence[AwayPeriod]], timezone: str
) -> tuple[tuple[str, int], ...]:
    scheduled = tuple(zip(rounds.scheduled_round_ids, rounds.scheduled_for, strict=True))

    def excused(member: int) -> frozenset[int]:
        away = periods.get(rounds.platform_ids.get(member, ""), ())
        return excused_rounds(scheduled, away, timezone) | rounds.skipped_round_ids

    current = [
        (
            rounds.names[member],
            streak(rounds.scheduled_round_ids, answered, None, excused(member)).current,
        )
        for member, answered in rounds.answered.items()
    ]
    leaders = sorted((c for c in current if c[1] > 0), key=lambda c: (-c[1], c[0]))
    return tuple(leaders[:STREAK_LEADERS])


def excerpt(text: str) -> str:
    """One line of at most EXCERPT_LENGTH characters."""
    line = " ".join(text.split())
    if len(line) <= EXCERPT_LENGTH:
        return line
    return line[: EXCERPT_LENGTH - 1].rstrip() + "…"


# ---------------------------------------------------------------- text


def _compared(now: int, before: int) -> str:
    change = now - before
    trend = "same as" if change == 0 else f"{change:+d} on"
    return f"{now} ({trend} the week before: {before})"


def _top_answers_text(answers: Sequence[TopAnswer]) -> str:
    if not answers:
        return "No votes this week."
    lines = []
    for number, answer in enumerate(answers, start=1):
        votes = f"{answer.votes} vote" + ("" if answer.votes == 1 else "s")
        where = f" — {answer.link}" if answer.link else ""
        lines.append(f"{number}. {answer.member_name} ({votes}): “{answer.excerpt}”{where}")
    return "\n".join(lines)


def _quality_text(leaders: Sequence[tuple[str, int]]) -> str:
    if not leaders:
        return (
            "None yet: a review that ticks the key points an answer covered earns its author"
            " points for quality."
        )
    named = ", ".join(f"{name} {points}" for name, points in leaders)
    return f"{named} (for the key points teammates' reviews judged their answers covered)"


def _streaks_text(leaders: Sequence[tuple[str, int]]) -> str:
    if not leaders:
        return "No streaks running."
    return ", ".join(f"{name} {count} in a row" for name, count in leaders)


def _standing_text(rows: Sequence[TopicMastery], median: float | None, side: str) -> str:
    """The strongest (``side`` "above") or weakest topics, each with its recall, and what
    the list means."""
    if median is None:
        return NO_GRADES
    meaning = f"{STANDOUT_POINTS}+ points {side} the team's median topic, {median:g}%"
    if not rows:
        return f"None: no topic is {meaning}."
    return f"{', '.join(f'{row.topic} {row.percent}%' for row in rows)} ({meaning})"


def _due_text(due: Sequence[tuple[str, int]]) -> str:
    if not due:
        return "Nothing due."
    return ", ".join(f"{topic} ({count})" for topic, count in due)


def _days_text(days: Sequence[DayParticipation]) -> str:
    if not days:
        return "No scheduled day."
    return ", ".join(_day_text(day) for day in days)


def _day_text(day: DayParticipation) -> str:
    if day.asked:
        return f"{day.label} {day.members}"
    answered = f" ({day.members} answered)" if day.members else ""
    return f"{day.label} no question{answered}"


def trend_text(points: Sequence[RecallPoint]) -> str:
    """ "18 Oct 40%, 25 Oct 52%, …": the recall line's points; a week before any grade
    is left out."""
    known = [f"{p.day:%d %b} {p.percent}%" for p in points if p.percent is not None]
    if not known:
        return NO_GRADES
    weeks = weeks_so_far(points)
    so_far = "" if weeks is None else f" ({weeks} week{'' if weeks == 1 else 's'} so far)"
    return ", ".join(known) + so_far
