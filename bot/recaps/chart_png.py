"""PNG pictures of :mod:`bot.recaps.chart_data`, drawn with matplotlib's Agg renderer.

matplotlib is imported on the first render, never at import time, so starting the bot
does not pay for it. Figures are built with ``matplotlib.figure.Figure`` (no pyplot) and
every font, size and spine is set on the figure's own artists, never through
``rcParams``/``rc_context``: those are one global dict, and a render in a worker thread
that changed them would change them under a render in another thread. The font is DejaVu
Sans (shipped with matplotlib, so a chart looks the same on every machine) and the
colours the Okabe-Ito palette, which stays distinguishable with every common kind of
colour blindness.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from bot.recaps.chart_data import (
    ACTIVITY_WEEKS,
    CALENDAR_LABELS,
    STANDOUT_POINTS,
    TREND_WEEKS,
    WEEKDAY_LABELS,
    MeChart,
    RankedTopic,
    RecapChart,
    Standing,
    TopicMastery,
    recall_axis_label,
    weeks_so_far,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

WIDTH_PX, HEIGHT_PX, DPI = 1000, 500, 100
# Okabe & Ito (2008), "Color Universal Design".
BLUE, VERMILLION, GREEN = "#0072B2", "#D55E00", "#009E73"  # Okabe-Ito: colour-blind safe
GREY, BLACK = "#E6E6E6", "#000000"
STANDING_COLOURS = {Standing.STRONGEST: BLUE, Standing.WEAKEST: VERMILLION}
STANDING_MEANINGS = {
    Standing.STRONGEST: f"{STANDOUT_POINTS}+ points above",
    Standing.WEAKEST: f"{STANDOUT_POINTS}+ points below",
}
NO_QUESTION = "#999999"  # the hatching of a scheduled day without a question
# grey for a day without an answer, the full blue for a day's one scored answer, a
# darker blue for more
CALENDAR_STEPS = (GREY, BLUE, "#003A5C")
NO_GRADES = "No grades yet:\ngrade an answer after the reveal"
NONE_STAND_OUT = f"No topic is {STANDOUT_POINTS}+ points\nabove or below the median"
FONT = "DejaVu Sans"
TEXT_SIZE, PANEL_TITLE_SIZE, TITLE_SIZE, LEGEND_SIZE = 14, 16, 18, 12  # points
SMALL_SIZE = 12  # the recap's three panels share the width: their ticks and notes
NAME_SIZE, NAME_SIZE_MIN = 12, 8  # topic names above their bars, smaller when many
TEXT: dict[str, Any] = {"fontfamily": FONT, "fontsize": TEXT_SIZE}  # labels and notes
SMALL: dict[str, Any] = {"fontfamily": FONT, "fontsize": SMALL_SIZE}
NOTE: dict[str, Any] = {"fontfamily": FONT, "fontsize": 10}
PANEL_TITLE: dict[str, Any] = {
    "fontfamily": FONT,
    "fontsize": PANEL_TITLE_SIZE,
    "fontweight": "bold",
}
SMALL_TITLE: dict[str, Any] = {**PANEL_TITLE, "fontsize": 14}
TOPIC_NAME = "topic-name"  # the gid of a topic's name above its bar


def recap_figure(chart: RecapChart) -> Figure:
    """The recap's figure: the strongest and weakest topics, the team's recall over the
    last weeks and the members who answered on each scheduled day."""
    return _recap_figure(chart)


def me_figure(chart: MeChart) -> Figure:
    """``/quiz me``'s figure: the member's mastery per topic beside 12 weeks of activity."""
    return _me_figure(chart)


def png(figure: Figure) -> bytes:
    """The figure as PNG bytes, WIDTH_PX x HEIGHT_PX."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure)
    out = io.BytesIO()
    # zlib level 1 instead of 6: a flat-coloured chart grows by under 10%, encodes faster.
    figure.savefig(out, format="png", dpi=DPI, pil_kwargs={"compress_level": 1})
    return out.getvalue()


def recap_png(chart: RecapChart) -> bytes:
    return png(recap_figure(chart))


def me_png(chart: MeChart) -> bytes:
    return png(me_figure(chart))


def _styled(axes: Axes, size: int = TEXT_SIZE) -> None:
    """Tick labels in the chart's font and size, no top or right spine (ticks matplotlib
    adds while drawing take the same settings)."""
    axes.tick_params(labelsize=size, labelfontfamily=FONT)
    axes.spines[["top", "right"]].set_visible(False)


def _recap_figure(chart: RecapChart) -> Figure:
    figure = _figure(chart.title)
    grid = figure.add_gridspec(
        2,
        2,
        width_ratios=(1, 1.05),
        left=0.03,
        right=0.97,
        top=0.84,
        bottom=0.13,
        wspace=0.2,
        hspace=0.75,
    )
    mastery_axes = figure.add_subplot(grid[:, 0])
    trend_axes = figure.add_subplot(grid[0, 1])
    days_axes = figure.add_subplot(grid[1, 1])
    _styled(mastery_axes, SMALL_SIZE)
    standings = [s for s in Standing if any(row.standing is s for row in chart.mastery)]
    keys = len(standings) + (chart.median is not None)
    _mastery_panel(
        mastery_axes,
        chart.mastery,
        "Strongest and weakest topics",
        recall_axis_label(chart.mastery_on),
        legend_pt=LEGEND_SIZE * (1.5 * keys + 0.7) if keys else 0.0,
        empty=NO_GRADES if chart.median is None else NONE_STAND_OUT,
    )
    if chart.median is not None:
        # the strongest and weakest stand out from it; behind the bars and their names
        mastery_axes.axvline(
            chart.median, color=BLACK, linestyle="--", linewidth=1.2, gid="median", zorder=0
        )
    if keys:
        _standing_legend(mastery_axes, standings, chart.median)
    _styled(trend_axes, SMALL_SIZE)
    _trend_panel(trend_axes, chart)
    _styled(days_axes, SMALL_SIZE)
    _participation_panel(days_axes, chart)
    return figure


def _trend_panel(axes: Axes, chart: RecapChart) -> None:
    points = chart.recall_trend
    positions = list(range(len(points)))
    values = [float("nan") if p.percent is None else p.percent for p in points]
    axes.plot(positions, values, color=BLUE, marker="o", linewidth=2.5, markersize=6)
    # recall at each week's time, where the bars beside it are recall in 30 days
    axes.set_title(f"Team recall at the time, last {TREND_WEEKS} weeks", **SMALL_TITLE)
    # each point from the grades given by then, not today's cards looked at backwards
    axes.set_xlabel("at each week's recap time, from the grades given by then", **NOTE)
    axes.set_ylabel("Recall at the time (%)", **SMALL)
    axes.set_ylim(0, 105)
    axes.set_yticks([0, 50, 100])
    axes.set_xlim(-0.4, max(len(points) - 0.6, 0.6))
    shown = positions[::-3][::-1]  # every third week, the latest always
    axes.set_xticks(shown, [points[i].day.strftime("%d %b") for i in shown])
    if all(p.percent is None for p in points):
        axes.text(
            0.5,
            0.5,
            "No grades yet",
            transform=axes.transAxes,
            ha="center",
            va="center",
            **SMALL,
        )
    else:
        weeks = weeks_so_far(points)
        if weeks is not None:  # a lone point at the right end would look like a gap
            so_far = f"{weeks} week{'' if weeks == 1 else 's'} so far"
            axes.text(0.02, 0.08, so_far, transform=axes.transAxes, ha="left", **SMALL)
        latest = next(p for p in reversed(points) if p.percent is not None)
        index = points.index(latest)
        axes.annotate(
            f"{latest.percent}%",
            (index, latest.percent),
            xytext=(0, 7),
            textcoords="offset points",
            ha="center",
            va="bottom",
            **SMALL,
        )


def _participation_panel(axes: Axes, chart: RecapChart) -> None:
    days = chart.participation
    positions = list(range(len(days)))
    counts = [day.members for day in days]
    top = max((*counts, 1)) * 1.35
    for position, day in zip(positions, days, strict=True):
        if not day.asked:  # no question that day: not a day nobody answered
            axes.bar(
                position,
                top,
                width=0.7,
                color="none",
                edgecolor=NO_QUESTION,
                hatch="//",
                linewidth=0,
            )
            axes.text(position, top * 0.8, "no\nquestion", ha="center", va="center", **NOTE)
    columns = axes.bar(positions, counts, color=GREEN, width=0.7)  # not a standing's colour
    axes.bar_label(
        columns,
        labels=[str(day.members) if day.asked or day.members else "" for day in days],
        padding=2,
        **SMALL,
    )
    axes.set_xticks(
        positions,
        [f"{WEEKDAY_LABELS[d.day.weekday()]}\n{d.day:%d}" for d in days],
    )
    axes.set_title("Members who answered, each day", **SMALL_TITLE)
    axes.set_ylim(0, top)
    axes.set_yticks([])
    axes.spines["left"].set_visible(False)
    axes.set_xlim(-0.6, max(len(days) - 0.4, 0.6))
    if not days:
        axes.text(
            0.5,
            0.5,
            "No scheduled day",
            transform=axes.transAxes,
            ha="center",
            va="center",
            **SMALL,
        )


def _standing_legend(axes: Axes, standings: Sequence[Standing], median: float | None) -> None:
    """What each colour means, and the team's median topic they are measured from."""
    from matplotlib.artist import Artist
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Artist] = [
        Patch(color=STANDING_COLOURS[s], label=f"{s.value}: {STANDING_MEANINGS[s]}")
        for s in standings
    ]
    if median is not None:
        handles.append(
            Line2D([], [], color=BLACK, linestyle="--", label=f"team median {median:g}%")
        )
    axes.legend(
        handles=handles,
        ncols=1,
        loc="lower right",
        frameon=True,  # a white box, so the median line never runs through its words
        facecolor="white",
        edgecolor="none",
        framealpha=1.0,
        prop={"family": FONT, "size": LEGEND_SIZE},
        handlelength=1.2,
        borderaxespad=0.1,
    )


def _me_figure(chart: MeChart) -> Figure:
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import Patch

    figure = _figure(chart.title)
    grid = figure.add_gridspec(
        1, 2, width_ratios=(1, 1.1), left=0.03, right=0.98, top=0.83, bottom=0.2, wspace=0.12
    )
    mastery_axes = figure.add_subplot(grid[0, 0])
    calendar_axes = figure.add_subplot(grid[0, 1])
    _styled(mastery_axes)
    _styled(calendar_axes)
    on = f" on {chart.mastery_on:%d %b %Y}" if chart.mastery_on else ""
    _mastery_panel(mastery_axes, chart.mastery, f"Your expected recall{on}", "Expected recall (%)")
    grid_cells = [
        [
            chart.calendar_step(chart.answers_per_day[week * 7 + day])
            for week in range(ACTIVITY_WEEKS)
        ]
        for day in range(7)
    ]
    steps = ListedColormap(list(CALENDAR_STEPS))
    calendar_axes.imshow(
        grid_cells,
        cmap=steps,
        norm=BoundaryNorm([-0.5, *(step + 0.5 for step in range(steps.N))], steps.N),
        aspect="equal",
    )
    keys = [
        Patch(color=colour, label=label)
        for colour, label in zip(CALENDAR_STEPS, CALENDAR_LABELS, strict=True)
    ]
    calendar_axes.legend(
        handles=keys,
        title="scored answers a day",
        ncols=len(keys),
        loc="upper center",
        bbox_to_anchor=(0.5, -0.18),
        frameon=False,
        prop={"family": FONT, "size": LEGEND_SIZE},
        title_fontproperties={"family": FONT, "size": LEGEND_SIZE},
        handlelength=1.2,
        columnspacing=1.0,
    )
    calendar_axes.set_yticks(range(7), WEEKDAY_LABELS)
    week_ticks = list(range(0, ACTIVITY_WEEKS, 3))
    calendar_axes.set_xticks(week_ticks, [_monday(chart, week) for week in week_ticks])
    # White gaps between the days: two line collections (minor-tick grid lines would
    # create a tick object, with its labels, per line)
    calendar_axes.vlines(
        [x - 0.5 for x in range(1, ACTIVITY_WEEKS)], -0.5, 6.5, colors="white", linewidth=2
    )
    calendar_axes.hlines(
        [y - 0.5 for y in range(1, 7)], -0.5, ACTIVITY_WEEKS - 0.5, colors="white", linewidth=2
    )
    calendar_axes.tick_params(length=0)
    if not chart.answers:
        calendar_axes.text(5.5, 3, "No answers yet", ha="center", va="center", **TEXT)
    for side in calendar_axes.spines.values():
        side.set_visible(False)
    calendar_axes.set_title(chart.activity_text, **PANEL_TITLE)
    calendar_axes.set_xlabel("Week starting", **TEXT)
    return figure


def _figure(title: str) -> Figure:
    from matplotlib.figure import Figure

    # Fixed margins: constrained layout would cost more than the drawing itself.
    figure = Figure(figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI)
    figure.suptitle(title, fontfamily=FONT, fontsize=TITLE_SIZE, fontweight="bold")
    return figure


def _mastery_panel(
    axes: Axes,
    mastery: Sequence[TopicMastery] | Sequence[RankedTopic],
    title: str,
    axis_label: str,
    legend_pt: float = 0.0,
    empty: str = NO_GRADES,
) -> None:
    """Bars of recall per topic, strongest at the top, each topic's name above its bar
    from the axes' left edge (wrapped at its hyphens to the panel's width): a name is
    never cut, whatever its length. ``legend_pt``: room kept free below the bars."""
    axes.set_title(title, loc="left", **PANEL_TITLE)
    axes.set_xlabel(axis_label, **SMALL)
    axes.set_xlim(0, 115)
    axes.set_xticks([0, 25, 50, 75, 100])
    axes.set_yticks([])
    axes.spines["left"].set_visible(False)
    if not mastery:
        axes.text(
            0.5,
            0.5,
            empty,
            transform=axes.transAxes,
            ha="center",
            va="center",
            bbox={"facecolor": "white", "edgecolor": "none"},  # over the median line
            **TEXT,
        )
        return
    box = axes.get_position()
    width_pt = box.width * WIDTH_PX * 72 / DPI * 0.9  # clear of the next panel's ticks
    height_pt = box.height * HEIGHT_PX * 72 / DPI
    size, names = _fitted_names([row.topic for row in mastery], width_pt, height_pt - legend_pt)
    line = size * 1.2  # points
    bar = max(size * 1.1, 8.0)
    # y in points from the top: a row is its name's lines, then its bar, then a gap
    top = 0.0
    placed: list[tuple[float, float]] = []  # (name top, bar centre)
    for lines in names:
        placed.append((top, top + len(lines) * line + bar / 2 + 1))
        top += len(lines) * line + bar + size * 0.6
    axes.set_ylim(max(top + legend_pt, height_pt), 0)  # inverted: the first row at the top
    colours = [
        STANDING_COLOURS[row.standing] if isinstance(row, RankedTopic) else BLUE for row in mastery
    ]
    bars = axes.barh(
        [centre for _, centre in placed],
        [row.percent for row in mastery],
        color=colours,
        height=bar,
    )
    axes.bar_label(bars, labels=[f"{row.percent}%" for row in mastery], padding=3, **SMALL)
    for (name_top, _), lines in zip(placed, names, strict=True):
        axes.text(
            0,
            name_top,
            "\n".join(lines),
            ha="left",
            va="top",
            linespacing=1.2,
            fontfamily=FONT,
            fontsize=size,
            gid=TOPIC_NAME,
        )


def _fitted_names(
    names: Sequence[str], width_pt: float, height_pt: float
) -> tuple[float, list[list[str]]]:
    """The font size and lines of the topic names: NAME_SIZE, smaller (to NAME_SIZE_MIN)
    when the rows would not fit the panel's height."""
    size = float(NAME_SIZE)
    while True:
        wrapped = [_wrapped(name, size, width_pt) for name in names]
        rows = sum(len(lines) * size * 1.2 + max(size * 1.1, 8.0) + size * 0.6 for lines in wrapped)
        if rows <= height_pt or size <= NAME_SIZE_MIN:
            return size, wrapped
        size -= 1


def _wrapped(name: str, size: float, width_pt: float) -> list[str]:
    """The name in lines no wider than ``width_pt``, broken after hyphens where it can,
    inside a word only when one word alone is too wide."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    measure = TextToPath()
    font = FontProperties(family=FONT, size=size)

    def width(text: str) -> float:
        return float(measure.get_text_width_height_descent(text, font, ismath=False)[0])

    pieces: list[str] = []
    for word in name.split("-"):
        pieces.append(word + "-")
    pieces[-1] = pieces[-1][:-1]
    lines: list[str] = []
    current = ""
    for piece in pieces:
        if width(current + piece) <= width_pt:
            current += piece
            continue
        if current:
            lines.append(current)
        current = ""
        for char in piece:
            if current and width(current + char) > width_pt:
                lines.append(current)
                current = ""
            current += char
    lines.append(current)
    return lines


def _monday(chart: MeChart, week: int) -> str:
    return (chart.first_day + timedelta(weeks=week)).strftime("%d %b")
