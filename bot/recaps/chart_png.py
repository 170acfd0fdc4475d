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

from bot.recaps.chart_data import ACTIVITY_WEEKS, WEEKDAY_LABELS, MeChart, RecapChart, TopicMastery

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

WIDTH_PX, HEIGHT_PX, DPI = 1000, 500, 100
# Okabe & Ito (2008), "Color Universal Design".
BLUE, VERMILLION, GREY, BLACK = "#0072B2", "#D55E00", "#E6E6E6", "#000000"
CALENDAR_STEPS = ("#E6E6E6", "#B3D4E8", "#5AA2CF", "#0072B2")  # light to Okabe-Ito blue
CALENDAR_LABELS = ("0", "1", "2", "3+")  # answers on the day
NO_GRADES = "No grades yet:\ngrade an answer after the reveal"
FONT = "DejaVu Sans"
TEXT_SIZE, PANEL_TITLE_SIZE, TITLE_SIZE, LEGEND_SIZE = 14, 16, 18, 12  # points
TEXT: dict[str, Any] = {"fontfamily": FONT, "fontsize": TEXT_SIZE}  # labels and notes
PANEL_TITLE: dict[str, Any] = {
    "fontfamily": FONT,
    "fontsize": PANEL_TITLE_SIZE,
    "fontweight": "bold",
}


def recap_figure(chart: RecapChart) -> Figure:
    """The recap's figure: topic mastery beside members per day."""
    return _styled(_recap_figure(chart))


def me_figure(chart: MeChart) -> Figure:
    """``/quiz me``'s figure: the member's mastery per topic beside 12 weeks of activity."""
    return _styled(_me_figure(chart))


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


def _styled(figure: Figure) -> Figure:
    """Tick labels in the chart's font and size, no top or right spine: set on each axes
    (ticks matplotlib adds while drawing take the same settings)."""
    for axes in figure.axes:
        axes.tick_params(labelsize=TEXT_SIZE, labelfontfamily=FONT)
        axes.spines[["top", "right"]].set_visible(False)
    return figure


def _recap_figure(chart: RecapChart) -> Figure:
    figure = _figure(chart.title)
    mastery_axes, days_axes = figure.subplots(1, 2, gridspec_kw={"width_ratios": (1.15, 1)})
    _mastery_panel(mastery_axes, chart.mastery, "Team recall expected in 30 days")
    positions = list(range(len(WEEKDAY_LABELS)))
    columns = days_axes.bar(positions, chart.members_per_day, color=VERMILLION, width=0.7)
    days_axes.bar_label(columns, padding=2, **TEXT)
    days_axes.set_xticks(positions, WEEKDAY_LABELS)
    days_axes.set_title("Members per day", **PANEL_TITLE)
    days_axes.set_xlabel("Day of the week", **TEXT)
    days_axes.set_ylabel("Members", **TEXT)
    days_axes.set_ylim(0, max((*chart.members_per_day, 1)) * 1.25)
    days_axes.yaxis.get_major_locator().set_params(integer=True)
    return figure


def _me_figure(chart: MeChart) -> Figure:
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import Patch

    figure = _figure(chart.title)
    mastery_axes, calendar_axes = figure.subplots(1, 2, gridspec_kw={"width_ratios": (1, 1.1)})
    on = f" on {chart.mastery_on:%d %b %Y}" if chart.mastery_on else ""
    _mastery_panel(mastery_axes, chart.mastery, f"Your expected recall{on}")
    grid = [
        [chart.answers_per_day[week * 7 + day] for week in range(ACTIVITY_WEEKS)]
        for day in range(7)
    ]
    steps = ListedColormap(list(CALENDAR_STEPS))
    calendar_axes.imshow(
        grid, cmap=steps, norm=BoundaryNorm([0, 1, 2, 3, 10**9], steps.N), aspect="equal"
    )
    keys = [
        Patch(color=colour, label=label)
        for colour, label in zip(CALENDAR_STEPS, CALENDAR_LABELS, strict=True)
    ]
    calendar_axes.legend(
        handles=keys,
        title="answers a day",
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
    figure.subplots_adjust(left=0.17, right=0.98, top=0.83, bottom=0.13, wspace=0.35)
    figure.suptitle(title, fontfamily=FONT, fontsize=TITLE_SIZE, fontweight="bold")
    return figure


def _mastery_panel(axes: Axes, mastery: Sequence[TopicMastery], title: str) -> None:
    axes.set_title(title, **PANEL_TITLE)
    axes.set_xlabel("Recall now (%)", **TEXT)
    axes.set_xlim(0, 115)
    axes.set_xticks([0, 25, 50, 75, 100])
    if not mastery:
        axes.set_yticks([])
        axes.text(0.5, 0.5, NO_GRADES, transform=axes.transAxes, ha="center", va="center", **TEXT)
        return
    rows = list(reversed(mastery))  # strongest at the top
    bars = axes.barh(
        [row.topic for row in rows], [row.percent for row in rows], color=BLUE, height=0.6
    )
    axes.bar_label(bars, labels=[f"{row.percent}%" for row in rows], padding=3, **TEXT)


def _monday(chart: MeChart, week: int) -> str:
    return (chart.first_day + timedelta(weeks=week)).strftime("%d %b")
