"""The charts say what they show: recall labelled for the day it is forecast for, every
label inside the picture at any topic-name length a pack allows, the strongest and weakest
topics told apart, the recap's recall line and its days in the window's order, and a
calendar whose full colour is one scored answer a day."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, timedelta
from typing import cast
from zoneinfo import ZoneInfo

import numpy
import pytest
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from bot.recaps import chart_png
from bot.recaps.chart_data import (
    ACTIVITY_WEEKS,
    CALENDAR_LABELS,
    TREND_WEEKS,
    DayParticipation,
    MeChart,
    RankedTopic,
    RecallPoint,
    RecapChart,
    Standing,
    mastery_rows,
)
from bot.recaps.recap import participation, trend_text
from bot.recaps.store import WeekAnswer
from questions.pack import Slug

RGBA = tuple[float, float, float, float]
TOPIC_MAX = 64  # questions/pack.schema.json: a topic id's maxLength
FIRST_DAY = date(2026, 9, 14)  # a Monday
WEEKS = tuple(date(2026, 10, 16) + timedelta(weeks=n) for n in range(TREND_WEEKS))


def longest_names(count: int) -> list[str]:
    """Topic ids of the longest length the schema allows, the widest letters among them."""
    shapes = ["m" * TOPIC_MAX, "w" * 31 + "-" + "m" * 32, "distributed-training-" * 3 + "a"]
    names = [(shape + "-" + str(n))[-TOPIC_MAX:].lstrip("-") for n, shape in enumerate(shapes)]
    names += [
        f"{'kv-cache-eviction-' * 4}"[: TOPIC_MAX - 2].rstrip("-") + f"-{n}" for n in range(count)
    ]
    return names[:count]


def recap(mastery: tuple[RankedTopic, ...] = (), *, trend: bool = True) -> RecapChart:
    points = tuple(RecallPoint(day, 30 + 6 * n if trend else None) for n, day in enumerate(WEEKS))
    days = tuple(
        DayParticipation(date(2026, 11, 27) + timedelta(days=n), members)
        for n, members in ((0, 1), (3, 2), (4, 1), (5, 3), (6, 1), (7, 2))
    )
    return RecapChart(
        "Weekly recap · 27 Nov – 04 Dec 2026", mastery, points, days, date(2027, 1, 3)
    )


def ranked(names: list[str]) -> tuple[RankedTopic, ...]:
    half = len(names) // 2
    return tuple(
        RankedTopic(name, 95 - 15 * n, Standing.STRONGEST if n < half else Standing.WEAKEST)
        for n, name in enumerate(names)
    )


def outside_the_figure(figure: Figure) -> list[str]:
    """The text elements (titles, labels, ticks, legends, notes) not wholly inside the
    figure once drawn with the Agg canvas."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(figure)
    canvas.draw()  # type: ignore[no-untyped-call]
    renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    frame = figure.bbox
    outside = []
    for text in figure.findobj(Text):
        if not text.get_visible() or not text.get_text():
            continue
        box = text.get_window_extent(renderer)
        if box.x0 < frame.x0 or box.y0 < frame.y0 or box.x1 > frame.x1 or box.y1 > frame.y1:
            outside.append(f"{text.get_text()!r} at {box.bounds}")
    return outside


def test_the_longest_names_are_names_a_pack_allows() -> None:
    from pydantic import TypeAdapter

    slug = TypeAdapter(Slug)
    for name in longest_names(8):
        assert slug.validate_python(name) == name
        assert len(name) == TOPIC_MAX


@pytest.mark.parametrize("count", [1, 2, 6])
def test_every_text_of_the_recap_chart_lies_inside_it(count: int) -> None:
    for chart in (recap(ranked(longest_names(count))), recap(trend=False)):
        assert outside_the_figure(chart_png.recap_figure(chart)) == []


@pytest.mark.parametrize("count", [1, 4, 8])
def test_every_text_of_the_me_chart_lies_inside_it(count: int) -> None:
    topics = {name: 0.2 + 0.1 * n for n, name in enumerate(longest_names(count))}
    answered = tuple(int(n % 7 < 5) + (n % 11 == 0) for n in range(ACTIVITY_WEEKS * 7))
    for chart in (
        MeChart(
            "alice in #distributed-training",
            mastery_rows(topics),
            FIRST_DAY,
            answered,
            date(2027, 1, 1),
        ),
        MeChart("dana in #practice", (), FIRST_DAY, (0,) * (ACTIVITY_WEEKS * 7)),
    ):
        assert outside_the_figure(chart_png.me_figure(chart)) == []


def test_the_old_pictures_would_have_failed_the_inside_check() -> None:
    """The check sees a clipped name: a tick label too wide for its margin is outside."""
    from matplotlib.figure import Figure as PlainFigure

    figure = PlainFigure(figsize=(10, 5), dpi=100)
    axes = figure.subplots()
    axes.barh(["distributed-training-" * 3], [50])
    assert outside_the_figure(figure) != []


def test_recall_is_labelled_for_the_day_it_is_forecast_for_never_now() -> None:
    recap_axes = chart_png.recap_figure(recap(ranked(["gpu", "rdma"]))).axes[0]
    assert recap_axes.get_xlabel() == "Expected recall in 30 days, on 03 Jan 2027 (%)"
    me = MeChart("alice", mastery_rows({"gpu": 0.5}), FIRST_DAY, (0,) * 84, date(2027, 1, 1))
    me_axes = chart_png.me_figure(me).axes[0]
    assert me_axes.get_title(loc="left") == "Your expected recall on 01 Jan 2027"
    assert me_axes.get_xlabel() == "Expected recall (%)"
    for axes in (recap_axes, me_axes):
        assert "now" not in axes.get_xlabel().lower()


def test_the_strongest_and_weakest_topics_are_told_apart() -> None:
    chart = recap(ranked(["attention", "gpu", "storage", "networking"]))
    mastery_axes = chart_png.recap_figure(chart).axes[0]
    colours = [
        to_hex(bar.get_facecolor()).upper()
        for bar in mastery_axes.patches
        if isinstance(bar, Rectangle)
    ]
    assert colours == [chart_png.BLUE, chart_png.BLUE, chart_png.VERMILLION, chart_png.VERMILLION]
    legend = mastery_axes.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == [
        "strongest: 10+ points above",
        "weakest: 10+ points below",
    ]
    [legend_strong, legend_weak] = legend.legend_handles
    assert legend_strong is not None and legend_weak is not None
    assert to_hex(legend_strong.get_facecolor()).upper() == chart_png.BLUE  # type: ignore[attr-defined]


def test_the_recap_draws_the_recall_line_of_the_last_eight_weeks() -> None:
    points = tuple(RecallPoint(day, None if n < 3 else 40 + n) for n, day in enumerate(WEEKS))
    chart = RecapChart("t", (), points, ())
    trend_axes = chart_png.recap_figure(chart).axes[1]
    [line] = trend_axes.get_lines()
    drawn = [float(y) for y in numpy.asarray(line.get_ydata(), dtype=float)]
    assert len(drawn) == TREND_WEEKS == 8
    assert all(math.isnan(y) for y in drawn[:3])
    assert drawn[3:] == [43, 44, 45, 46, 47]
    assert [t.get_text() for t in trend_axes.get_xticklabels()][-1] == WEEKS[-1].strftime("%d %b")
    assert "from the grades given by then" in trend_axes.get_xlabel()
    assert trend_text(points) == (
        "06 Nov 43%, 13 Nov 44%, 20 Nov 45%, 27 Nov 46%, 04 Dec 47% (5 weeks so far)"
    )
    assert trend_text(tuple(RecallPoint(day, None) for day in WEEKS)) == "No grades yet."


def answer(member_id: int, at: datetime) -> WeekAnswer:
    return WeekAnswer(member_id, f"m{member_id}", at, True, 0, "text", "m", None)


def test_participation_keeps_the_window_order_and_only_its_scheduled_days() -> None:
    zone = ZoneInfo("Europe/Berlin")
    friday = datetime(2026, 11, 27, 17, tzinfo=zone)  # after the recap: this window's
    answers = [
        answer(1, friday),
        answer(2, datetime(2026, 11, 30, 9, 30, tzinfo=zone)),
        answer(1, datetime(2026, 11, 30, 10, tzinfo=zone)),
        answer(1, datetime(2026, 11, 30, 11, tzinfo=zone)),  # one member, counted once
        answer(3, datetime(2026, 12, 4, 9, 5, tzinfo=zone)),
    ]
    weekdays = {date(2026, 11, 30) + timedelta(days=n) for n in range(5)}
    days = participation([a for a in answers], weekdays, zone)
    assert [d.label for d in days] == [
        "Fri 27 Nov",
        "Mon 30 Nov",
        "Tue 01 Dec",
        "Wed 02 Dec",
        "Thu 03 Dec",
        "Fri 04 Dec",
    ]
    assert [d.members for d in days] == [1, 2, 0, 0, 0, 1]
    saturday = datetime(2026, 12, 5, 8, tzinfo=UTC)
    assert [d.label for d in participation([answer(1, saturday)], set(), zone)] == ["Sat 05 Dec"]


def test_one_scored_answer_a_day_is_the_calendars_full_colour() -> None:
    perfect = tuple(int(n % 7 < 5) for n in range(ACTIVITY_WEEKS * 7))  # every weekday once
    chart = MeChart("alice", (), FIRST_DAY, perfect)
    assert CALENDAR_LABELS == ("0", "1", "2+")
    assert [chart.calendar_step(n) for n in (0, 1, 2, 3, 9)] == [0, 1, 2, 2, 2]
    image = chart_png.me_figure(chart).axes[1].images[0]
    cells = image.get_array()
    assert cells is not None
    colours = {
        to_hex(cast(RGBA, image.cmap(image.norm(value)))).upper() for value in cells.flatten()
    }
    assert colours == {chart_png.GREY, chart_png.BLUE}  # the full blue, not the palest step
    legend = chart_png.me_figure(chart).axes[1].get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["0", "1", "2+"]


def test_the_weakest_topics_colour_means_weakest_only() -> None:
    """Vermillion marks the weakest topics; the participation bars beside them took the
    same colour, as if every day were a weak one."""
    figure = chart_png.recap_figure(recap(ranked(["attention", "gpu", "storage", "networking"])))
    [days_axes] = [a for a in figure.axes if a.get_title().startswith("Members who answered")]
    colours = {to_hex(bar.get_facecolor()).upper() for bar in days_axes.patches}
    assert colours, "the recap drew no participation bars"
    assert not colours & set(chart_png.STANDING_COLOURS.values())
