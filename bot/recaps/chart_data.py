"""What a chart shows, as plain data: the card's text and the PNG are both built from it.

Keeping the figures here (and nothing drawn) is what lets a test check that the picture
and the text beside it say the same thing, and what the outbox stores instead of an
image: a recap is rendered from these figures at send time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

WEEKDAY_LABELS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
ACTIVITY_WEEKS = 12
TREND_WEEKS = 8  # the recap's recall line: one point a week, the recap's moment the last
STANDOUT_POINTS = 10  # strongest: this far above the team's median topic; weakest: below
# The calendar's steps: a scored answer is one a round (the first answer of a member),
# so one a day is a full day of a daily quiz and takes the full colour; more than one
# (/quiz now besides the scheduled question) a darker one.
CALENDAR_BOUNDS = (0, 1, 2)  # the lowest count of each step
CALENDAR_LABELS = ("0", "1", "2+")  # answers on the day


@dataclass(frozen=True, slots=True)
class TopicMastery:
    """One bar of a mastery chart: a topic and its mean expected recall."""

    topic: str
    percent: int  # mean expected recall of the topic's graded questions, 0-100


class Standing(StrEnum):
    """Which of the recap's lists a charted topic is on."""

    STRONGEST = "strongest"
    WEAKEST = "weakest"


@dataclass(frozen=True, slots=True)
class RankedTopic:
    """One bar of the recap's mastery chart: a topic on the strongest or weakest list."""

    topic: str
    percent: int
    standing: Standing


@dataclass(frozen=True, slots=True)
class RecallPoint:
    """One point of the recap's recall line: the team's mean expected recall at ``day``'s
    moment; None before any grade was known."""

    day: date
    percent: int | None


@dataclass(frozen=True, slots=True)
class DayParticipation:
    """One column of the recap's participation chart: a day of the window and how many
    members answered on it; ``asked`` False: a scheduled day on which no question was
    posted (the channel paused, the bot down), which is not a day nobody answered."""

    day: date
    members: int
    asked: bool = True

    @property
    def label(self) -> str:
        """ "Fri 04 Dec": the weekday alone would fold two Fridays of a week into one."""
        return f"{WEEKDAY_LABELS[self.day.weekday()]} {self.day:%d %b}"


@dataclass(frozen=True, slots=True)
class RecapChart:
    """The weekly recap's picture: the strongest and weakest topics (bars, marked), the
    team's expected recall over the last TREND_WEEKS weeks (a line) and the members who
    answered on each day of the week (columns, in the window's order)."""

    title: str
    mastery: tuple[RankedTopic, ...]  # strongest first
    recall_trend: tuple[RecallPoint, ...]  # oldest first, TREND_WEEKS points
    participation: tuple[DayParticipation, ...]  # the window's days, in order
    mastery_on: date | None = None  # the day the bars forecast recall for
    median: float | None = None  # the team's median topic recall (%) the standings are from


@dataclass(frozen=True, slots=True)
class MeChart:
    """``/quiz me``'s picture: the member's mastery per topic and 12 weeks of activity."""

    title: str
    mastery: tuple[TopicMastery, ...]  # strongest first
    first_day: date  # a Monday: the calendar's first column
    answers_per_day: tuple[int, ...]  # ACTIVITY_WEEKS * 7 values from first_day
    mastery_on: date | None = None  # the day mastery forecasts recall for (the target date)

    def calendar_step(self, count: int) -> int:
        """The calendar step (an index of CALENDAR_LABELS) of a day with ``count`` answers."""
        return sum(1 for bound in CALENDAR_BOUNDS[1:] if count >= bound)

    @property
    def answers(self) -> int:
        return sum(self.answers_per_day)

    @property
    def active_days(self) -> int:
        return sum(1 for count in self.answers_per_day if count)

    @property
    def activity_text(self) -> str:
        """ "3 answers on 2 days": the calendar's heading and the text beside it."""
        return f"{plural(self.answers, 'answer')} on {plural(self.active_days, 'day')}"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def percent(recall: float) -> int:
    return round(max(0.0, min(1.0, recall)) * 100)


def mastery_rows(per_topic: Mapping[str, float]) -> tuple[TopicMastery, ...]:
    """Topics by mean recall (0-1), strongest first, ties by name."""
    rows = [TopicMastery(topic, percent(recall)) for topic, recall in per_topic.items()]
    return tuple(sorted(rows, key=lambda row: (-row.percent, row.topic)))


def recall_axis_label(on: date | None) -> str:
    """The mastery bars' axis: recall expected on the day they forecast, 30 days after
    the recap, never "now" (the recall line beside them is at the time)."""
    return f"Expected recall in 30 days, on {on:%d %b %Y} (%)" if on else "Expected recall (%)"


def weeks_so_far(points: Sequence[RecallPoint]) -> int | None:
    """How many weeks of the recall line have grades, when fewer than all (None: all)."""
    known = sum(1 for point in points if point.percent is not None)
    return known if 0 < known < len(points) else None


def calendar_start(today: date) -> date:
    """The Monday that starts the 12-week calendar ending with ``today``'s week."""
    return today - timedelta(days=today.weekday(), weeks=ACTIVITY_WEEKS - 1)


def activity(first_day: date, answer_days: Mapping[date, int]) -> tuple[int, ...]:
    """Answers per day for the calendar starting at ``first_day``."""
    return tuple(
        answer_days.get(first_day + timedelta(days=offset), 0)
        for offset in range(ACTIVITY_WEEKS * 7)
    )
