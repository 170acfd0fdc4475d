"""The recap's chart and card say what they mean: "strongest" and "weakest" are topics 10
points or more above or below the team's median topic (never a topic one point from the
next), recall in 30 days and recall at the time are labelled apart in one picture, a
recall line with one week of grades says it is one week so far, and a scheduled day on
which no question was posted (the channel paused, the bot down) is marked so rather than
drawn as a day nobody answered."""

from __future__ import annotations

from datetime import date, timedelta

import numpy
import pytest
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from bot.recaps import chart_png
from bot.recaps.chart_data import (
    TREND_WEEKS,
    DayParticipation,
    RankedTopic,
    RecallPoint,
    RecapChart,
    Standing,
    mastery_rows,
)
from bot.recaps.recap import participation, strongest_and_weakest, trend_text
from tests.harness import QuizHarness

WEEKS = tuple(date(2026, 10, 16) + timedelta(weeks=n) for n in range(TREND_WEEKS))
DAYS = tuple(date(2026, 11, 30) + timedelta(days=n) for n in range(5))


@pytest.mark.parametrize(
    ("recall", "strongest", "weakest"),
    [
        ({}, [], []),
        ({"gpu": 0.8}, [], []),  # one topic stands out from nothing
        ({"gpu": 0.8, "rdma": 0.4}, ["gpu"], ["rdma"]),
        ({"gpu": 0.5, "rdma": 0.5, "kv": 0.5}, [], []),
        # one point apart is no difference: only rdma is well below the median (76.5)
        (
            {"attention": 0.80, "gpu": 0.78, "storage": 0.77, "networking": 0.76},
            [],
            [],
        ),
        (
            {"attention": 0.8, "gpu": 0.78, "storage": 0.77, "net": 0.76, "kv": 0.75, "rdma": 0.52},
            [],
            ["rdma"],
        ),
        ({"a": 0.9, "b": 0.8, "c": 0.7, "d": 0.2, "e": 0.1}, ["a", "b"], ["e", "d"]),
        ({t: 1 - n / 10 for n, t in enumerate("abcdefg")}, ["a", "b", "c"], ["g", "f", "e"]),
    ],
)
def test_strongest_and_weakest_are_ten_points_from_the_median(
    recall: dict[str, float], strongest: list[str], weakest: list[str]
) -> None:
    strong, weak = strongest_and_weakest(mastery_rows(recall))
    assert [row.topic for row in strong] == strongest
    assert [row.topic for row in weak] == weakest


def chart(
    mastery: tuple[RankedTopic, ...] = (),
    points: tuple[RecallPoint, ...] = (),
    days: tuple[DayParticipation, ...] = (),
    median: float | None = None,
) -> RecapChart:
    points = points or tuple(RecallPoint(day, 30 + 6 * n) for n, day in enumerate(WEEKS))
    return RecapChart(
        "Weekly recap · 27 Nov – 04 Dec 2026", mastery, points, days, date(2027, 1, 3), median
    )


def texts(axes: object) -> list[str]:
    return [t.get_text() for t in axes.findobj(Text) if t.get_visible()]  # type: ignore[attr-defined]


def test_the_bars_say_strongest_and_weakest_against_the_median() -> None:
    ranked = (
        RankedTopic("attention", 90, Standing.STRONGEST),
        RankedTopic("rdma", 52, Standing.WEAKEST),
    )
    bars = chart_png.recap_figure(chart(ranked, median=76.5)).axes[0]
    legend = bars.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == [
        "strongest: 10+ points above",
        "weakest: 10+ points below",
        "team median 76.5%",
    ]
    assert "team median 76.5%" in texts(bars)
    [median_line] = [line for line in bars.get_lines() if line.get_gid() == "median"]
    assert [float(x) for x in numpy.asarray(median_line.get_xdata(), dtype=float)] == [76.5, 76.5]


def test_recall_in_30_days_and_recall_at_the_time_are_labelled_apart() -> None:
    figure = chart_png.recap_figure(chart((RankedTopic("gpu", 80, Standing.STRONGEST),), median=60))
    bars, trend = figure.axes[0], figure.axes[1]
    assert bars.get_xlabel() == "Expected recall in 30 days, on 03 Jan 2027 (%)"
    assert trend.get_ylabel() == "Recall at the time (%)"
    assert trend.get_title() == f"Team recall at the time, last {TREND_WEEKS} weeks"


def test_a_line_of_one_week_says_one_week_so_far() -> None:
    points = tuple(
        RecallPoint(day, 70 if n == TREND_WEEKS - 1 else None) for n, day in enumerate(WEEKS)
    )
    trend = chart_png.recap_figure(chart(points=points)).axes[1]
    assert "1 week so far" in texts(trend)
    assert trend_text(points) == "04 Dec 70% (1 week so far)"
    full = tuple(RecallPoint(day, 60) for day in WEEKS)
    assert "so far" not in " ".join(texts(chart_png.recap_figure(chart(points=full)).axes[1]))
    assert "so far" not in trend_text(full)


def test_a_day_without_a_question_is_marked_not_drawn_as_nobody_answering() -> None:
    days = (
        DayParticipation(DAYS[0], 3),
        DayParticipation(DAYS[1], 2),
        DayParticipation(DAYS[2], 0, asked=False),
        DayParticipation(DAYS[3], 0),
    )
    axes = chart_png.recap_figure(chart(days=days)).axes[2]
    assert "no\nquestion" in texts(axes)
    labels = [t for t in texts(axes) if t.isdigit()]
    assert labels == ["3", "2", "0"]  # the day with no question has no "0" of its own
    hatched = [p for p in axes.patches if isinstance(p, Rectangle) and p.get_hatch()]
    assert len(hatched) == 1


def test_participation_knows_the_days_a_question_was_posted() -> None:
    from zoneinfo import ZoneInfo

    shown = participation([], set(DAYS), ZoneInfo("UTC"), asked={DAYS[0], DAYS[1], DAYS[4]})
    assert [(d.day, d.members, d.asked) for d in shown] == [
        (DAYS[0], 0, True),
        (DAYS[1], 0, True),
        (DAYS[2], 0, False),
        (DAYS[3], 0, False),
        (DAYS[4], 0, True),
    ]


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


async def test_the_recap_names_the_days_no_question_was_posted(quiz: QuizHarness) -> None:
    from tests.core.recaps.test_recap import (
        FRIDAY_RECAP,
        MONDAY,
        day,
        field,
        recaps,
        scheduled_round,
        send_recap,
    )

    quiz.clock.set(MONDAY)
    await quiz.command("schedule weekdays 09:00 UTC")
    for offset in (0, 1, 4):  # down on Wednesday and Thursday
        await scheduled_round(quiz, day(offset))
        await quiz.answer("alice", "an answer")
    await send_recap(quiz, FRIDAY_RECAP)
    [sent] = recaps(quiz.platform)
    assert field(sent.card, "Members per day") == (
        "Mon 30 Nov 1, Tue 01 Dec 1, Wed 02 Dec no question, Thu 03 Dec no question, Fri 04 Dec 1"
    )
