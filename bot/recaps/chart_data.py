"""What a chart shows, as plain data: the card's text and the PNG are both built from it.

Keeping the figures here (and nothing drawn) is what lets a test check that the picture
and the text beside it say the same thing, and what the outbox stores instead of an
image: a recap is rendered from these figures at send time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta

WEEKDAY_LABELS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
ACTIVITY_WEEKS = 12


@dataclass(frozen=True, slots=True)
class TopicMastery:
    """One bar of a mastery chart: a topic and its mean expected recall."""

    topic: str
    percent: int  # mean expected recall of the topic's graded questions, 0-100


@dataclass(frozen=True, slots=True)
class RecapChart:
    """The weekly recap's picture: topic mastery (bars) and members per day (columns)."""

    title: str
    mastery: tuple[TopicMastery, ...]  # strongest first
    members_per_day: tuple[int, ...]  # Monday first, seven values


@dataclass(frozen=True, slots=True)
class MeChart:
    """``/quiz me``'s picture: the member's mastery per topic and 12 weeks of activity."""

    title: str
    mastery: tuple[TopicMastery, ...]  # strongest first
    first_day: date  # a Monday: the calendar's first column
    answers_per_day: tuple[int, ...]  # ACTIVITY_WEEKS * 7 values from first_day
    mastery_on: date | None = None  # the day mastery forecasts recall for (the target date)

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


def calendar_start(today: date) -> date:
    """The Monday that starts the 12-week calendar ending with ``today``'s week."""
    return today - timedelta(days=today.weekday(), weeks=ACTIVITY_WEEKS - 1)


def activity(first_day: date, answer_days: Mapping[date, int]) -> tuple[int, ...]:
    """Answers per day for the calendar starting at ``first_day``."""
    return tuple(
        answer_days.get(first_day + timedelta(days=offset), 0)
        for offset in range(ACTIVITY_WEEKS * 7)
    )
