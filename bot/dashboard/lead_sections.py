"""The dashboard's own sections of the lead's page: participation per week, the team's
expected recall per topic (a heatmap), the questions' item analysis, and mock interviews.

Individual members appear only when they share (``/quiz dashboard share on``); everyone
else is inside aggregates of at least :data:`SMALLEST_AGGREGATE` members.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta

from bot.bank.catalog import workspace_of
from bot.bank.store import BankStore, Workspace
from bot.dashboard.recall import average, per_topic
from bot.dashboard.store import DashboardStore
from bot.kernel.dashboard_views import (
    SMALLEST_AGGREGATE,
    Bars,
    DashboardSection,
    DashboardView,
    Heatmap,
    Note,
    Table,
)
from bot.kernel.grades import Grade
from bot.kernel.refs import ChannelRef
from bot.learning.memory_model import ModelOf, defaults_everywhere
from bot.member_data.readiness import Readiness
from questions.pack import Question

WEEKS_SHOWN = 12
ITEMS_SHOWN = 5
EVERYBODY = 0.9  # the share of good-or-better grades that counts as "everybody nails it"
NOBODY = 0.1  # ... and at most this share: "nobody gets it"
FEWEST_GRADES = 3  # a question needs this many grades before it is called either

Topics = Callable[[Workspace | None], Mapping[int, str]]
QuestionOf = Callable[[ChannelRef, int], Question | None]


def week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


class Participation:
    """Answers, own grades, reviews and practice per ISO week, the last twelve."""

    def __init__(self, store: DashboardStore) -> None:
        self._store = store

    async def __call__(self, view: DashboardView) -> DashboardSection:
        first = week_start(view.now.date()) - timedelta(weeks=WEEKS_SHOWN - 1)
        since = datetime.combine(first, time(), UTC)
        days = await self._store.daily_counts(view.channel.id, since)
        weeks = [first + timedelta(weeks=n) for n in range(WEEKS_SHOWN)]
        totals = {week: [0, 0, 0, 0] for week in weeks}
        for counts in days:
            row = totals.get(week_start(counts.day))
            if row is not None:
                for index, value in enumerate(
                    (counts.answers, counts.grades, counts.reviews, counts.practice)
                ):
                    row[index] += value
        labels = tuple(f"{week:%d %b}" for week in weeks)
        kinds = ("answers", "grades", "reviews", "practice")
        series = tuple(
            (kind, tuple(totals[week][index] for week in weeks)) for index, kind in enumerate(kinds)
        )
        rows = tuple(
            (f"week of {week:%a %d %b %Y}", *(str(v) for v in totals[week]))
            for week in reversed(weeks)
            if any(totals[week])
        )
        return DashboardSection(
            "Participation per week",
            "members' first answers in this channel's rounds; their own grades of them;"
            " teammates' reviews of answers here; private practice graded by members who"
            " answered here; counted by UTC day, grouped by week (Monday first), last"
            f" {WEEKS_SHOWN} weeks",
            (Bars(labels, series), Table(("week", *kinds), rows, "No activity in these weeks.")),
        )


class RecallHeatmap:
    """Expected recall per topic now and on goal dates: the members who share, one row
    each; everyone together, and everyone else, as aggregates of three or more."""

    def __init__(
        self,
        store: DashboardStore,
        topics: Topics,
        readiness: Readiness,
        models: ModelOf = defaults_everywhere,
    ) -> None:
        self._store = store
        self._topics = topics
        self._readiness = readiness
        self._models = models

    async def __call__(self, view: DashboardView) -> DashboardSection:
        workspace = workspace_of(view.channel.ref)
        topics = self._topics(workspace)
        members = await self._store.channel_members(view.channel.id)
        cards = await self._store.channel_card_figures(view.channel.id)
        model = await self._models(workspace.platform, workspace.workspace_id)
        # thousands of forecasts: off the event loop, as the cards were built
        now_rows = await asyncio.to_thread(
            lambda: {m: per_topic(model, cards.get(m, ()), topics, view.now) for m, _ in members}
        )
        names = dict(members)
        goal_rows: dict[int, dict[str, float]] = {}
        goal_days: dict[int, date] = {}
        for ready in await self._readiness.members(view.channel.ref, workspace):
            if ready.goal.member_id in names and ready.goal.goal >= view.now.date():
                goal_rows[ready.goal.member_id] = dict(ready.weakest)
                goal_days[ready.goal.member_id] = ready.goal.goal
        columns = tuple(sorted({t for row in now_rows.values() for t in row}))
        now_map = _heatmap(
            columns, now_rows, names, view.sharing, lambda _: "", "Nothing graded yet."
        )
        goal_map = _heatmap(
            columns,
            goal_rows,
            names,
            view.sharing,
            lambda m: f" ({goal_days[m]:%d %b})",
            "No member here has a goal date ahead (`/quiz goal YYYY-MM-DD`).",
        )
        hidden = len([m for m in names if m not in view.sharing])
        return DashboardSection(
            "Expected recall per topic",
            "each member's memory model (FSRS cards from their own grades) forecast for today"
            " and for their goal date (`/quiz goal`), averaged over the topic's graded"
            f" questions; {len(view.sharing & names.keys())} member(s) share their row,"
            f" {hidden} are shown only in aggregates of at least {SMALLEST_AGGREGATE}",
            (
                Note("Now:"),
                now_map,
                Note("On each member's goal date (members with a goal ahead):"),
                goal_map,
            ),
        )


def _heatmap(
    columns: tuple[str, ...],
    rows: Mapping[int, Mapping[str, float]],
    names: Mapping[int, str],
    sharing: frozenset[int],
    suffix: Callable[[int], str],
    nobody: str,
) -> Heatmap:
    shown: list[tuple[str, tuple[float | None, ...]]] = []
    everyone = list(rows)
    others = [m for m in everyone if m not in sharing]
    groups = [(f"all members ({len(everyone)})", everyone)]
    if others and len(others) < len(everyone):
        groups.append((f"members not sharing ({len(others)})", others))
    for label, group in groups:
        values = _mean_row(columns, rows, group, sharing)
        if any(value is not None for value in values):
            shown.append((label, values))
    for member_id in sorted(m for m in everyone if m in sharing):
        values = tuple(rows[member_id].get(topic) for topic in columns)
        shown.append((names.get(member_id, "?") + suffix(member_id), values))
    empty = (
        "Nothing to show: fewer than"
        f" {SMALLEST_AGGREGATE} members with grades here who do not share, and none who does."
    )
    return Heatmap(columns, tuple(shown), empty if rows else nobody)


def _mean_row(
    columns: tuple[str, ...],
    rows: Mapping[int, Mapping[str, float]],
    group: Sequence[int],
    sharing: frozenset[int],
) -> tuple[float | None, ...]:
    """The group's mean per topic, where it hides nobody: of at least three members, and
    with none or at least three of them not sharing (one or two who do not share, beside
    the rows of those who do, could be worked out from the mean)."""
    values: list[float | None] = []
    for topic in columns:
        found = [m for m in group if topic in rows[m]]
        hidden = [m for m in found if m not in sharing]
        if len(found) >= SMALLEST_AGGREGATE and (not hidden or len(hidden) >= SMALLEST_AGGREGATE):
            values.append(average([rows[m][topic] for m in found]))
        else:
            values.append(None)
    return tuple(values)


class ItemAnalysis:
    """What the questions teach: those everybody nails or nobody gets, key points no
    reviewer ticked, flags and suggestions waiting, and own grades far from reviewers'."""

    def __init__(self, store: DashboardStore, bank: BankStore, question_of: QuestionOf) -> None:
        self._store = store
        self._bank = bank
        self._question_of = question_of

    async def __call__(self, view: DashboardView) -> DashboardSection:
        channel = view.channel
        grades = await self._store.question_grades(channel.id)
        nailed, missed = [], []
        for q in grades:
            if q.graded < FEWEST_GRADES:
                continue
            share = q.good_or_better / q.graded
            row = (self._title(channel.ref, q.question_id), str(q.graded), f"{round(share * 100)}%")
            if share >= EVERYBODY:
                nailed.append((share, row))
            elif share <= NOBODY:
                missed.append((share, row))
        nailed.sort(key=lambda item: -item[0])
        missed.sort(key=lambda item: item[0])
        uncovered = []
        for question_id, ticked in sorted((await self._store.reviewed_ticks(channel.id)).items()):
            question = self._question_of(channel.ref, question_id)
            if question is None:
                continue
            for number, point in enumerate(question.key_points, start=1):
                if number not in ticked:
                    uncovered.append((self._title(channel.ref, question_id), str(point)))
        workspace = workspace_of(channel.ref)
        flags = [f for f in await self._bank.flags(workspace) if f.channel_id == channel.id]
        waiting = await self._bank.pending_suggestions(workspace)
        disagreements = sorted(
            await self._store.grade_disagreements(channel.id),
            key=lambda d: -abs(d.own - average(d.reviewers)),
        )
        far = [
            (
                self._title(channel.ref, d.question_id),
                "a member" if d.member_id not in view.sharing else "a member who shares",
                Grade(d.own).word,
                f"{average(d.reviewers):.1f} ({len(d.reviewers)} review(s))",
                f"{abs(d.own - average(d.reviewers)):.1f}",
            )
            for d in disagreements[:ITEMS_SHOWN]
            if abs(d.own - average(d.reviewers)) >= 1
        ]
        header = ("question", "own grades", "good or nailed")
        return DashboardSection(
            "Item analysis",
            "members' own grades of their answers to this channel's rounds (at least"
            f" {FEWEST_GRADES} per question; everybody: {round(EVERYBODY * 100)}% or more good"
            f" or nailed, nobody: {round(NOBODY * 100)}% or less); the key points teammates"
            " ticked in their reviews; open flags of this channel's rounds and suggestions"
            " waiting in the workspace; own grades beside the mean score (1 missed .. 4 nailed)"
            " of the reviews of the same answer",
            (
                Note("Questions everybody nails:"),
                Table(header, tuple(r for _, r in nailed[:ITEMS_SHOWN]), "None yet."),
                Note("Questions nobody gets:"),
                Table(header, tuple(r for _, r in missed[:ITEMS_SHOWN]), "None yet."),
                Note("Key points no reviewer ticked (questions reviewed at least once):"),
                Table(("question", "key point"), tuple(uncovered[: ITEMS_SHOWN * 3]), "None."),
                Note(
                    f"Pending: {len(flags)} open flag(s) of this channel's questions,"
                    f" {len(waiting)} suggestion(s) waiting for an admin (`/quiz suggest`)."
                ),
                Table(
                    ("round", "flag"),
                    tuple((f"#{f.round_number}", f.reason) for f in flags[:ITEMS_SHOWN]),
                    "No open flags.",
                ),
                Note("Own grades farthest from reviewers':"),
                Table(
                    ("question", "who", "own grade", "reviewers' mean", "gap"),
                    tuple(far),
                    "No own grade is a whole grade away from its reviews.",
                ),
            ),
        )

    def _title(self, channel: ChannelRef, question_id: int) -> str:
        question = self._question_of(channel, question_id)
        if question is None:
            return f"question {question_id}"
        text = question.question.strip().splitlines()[0]
        return text if len(text) <= 90 else text[:89] + "…"


class MockInterviews:
    """Mock-interview groups formed per week, and the ratings interviewers gave."""

    def __init__(self, store: DashboardStore) -> None:
        self._store = store

    async def __call__(self, view: DashboardView) -> DashboardSection:
        held = await self._store.pair_groups_held(view.channel.id)
        ratings = await self._store.pair_ratings(view.channel.id)
        names = dict(await self._store.channel_members(view.channel.id))
        per_week: dict[str, list[int]] = {}
        for rating in ratings:
            per_week.setdefault(rating.week, []).append(rating.score)
        rows = tuple(
            (
                week,
                str(groups),
                str(len(per_week.get(week, []))),
                f"{average(per_week[week]):.1f}" if week in per_week else "–",
            )
            for week, groups in held[:WEEKS_SHOWN]
        )
        shared = tuple(
            (r.week, names.get(r.interviewer_id, "?"), names.get(r.candidate_id, "?"), str(r.score))
            for r in ratings
            if r.interviewer_id in view.sharing and r.candidate_id in view.sharing
        )[: ITEMS_SHOWN * 2]
        return DashboardSection(
            "Mock interviews",
            "the weekly pairings of `/quiz pair` (groups formed) and the interviewers' ratings"
            " of their candidates (1 missed .. 4 nailed); pairs are named only when both"
            " members share",
            (
                Table(("week", "groups", "ratings", "mean rating"), rows, "No pairings yet."),
                Table(
                    ("week", "interviewer", "candidate", "rating"),
                    shared,
                    "No rated pair of members who both share.",
                ),
            ),
        )
