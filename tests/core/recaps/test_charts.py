"""Charts from fixture data: valid PNGs of the expected size whose figures match the text,
readable with no data, and matplotlib kept out of start-up."""

from __future__ import annotations

import dataclasses
import io
import subprocess
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import date, timedelta
from typing import cast, overload

from matplotlib.patches import Rectangle
from PIL import Image as PilImage

from bot.recaps import chart_png
from bot.recaps._progress_chart import activity_field
from bot.recaps.chart_data import (
    ACTIVITY_WEEKS,
    DayParticipation,
    MeChart,
    RecallPoint,
    RecapChart,
    mastery_rows,
)
from bot.recaps.recap import Recap, TopAnswer, recap_card, recap_chart

# Friday 27 November 16:00 to Friday 4 December 16:00: both Fridays are days of the window
WINDOW_DAYS = (
    DayParticipation(date(2026, 11, 27), 1),
    DayParticipation(date(2026, 11, 30), 2),
    DayParticipation(date(2026, 12, 1), 1),
    DayParticipation(date(2026, 12, 2), 3),
    DayParticipation(date(2026, 12, 3), 1),
    DayParticipation(date(2026, 12, 4), 2),
)
TREND = tuple(
    RecallPoint(date(2026, 10, 16) + timedelta(weeks=n), None if n < 2 else 40 + 5 * n)
    for n in range(8)
)

RECAP = Recap(
    title="Weekly recap · 27 Nov – 04 Dec 2026",
    rounds=5,
    members=3,
    rounds_before=4,
    members_before=3,
    top_answers=(TopAnswer("Alice", "An answer", 2, "https://chat.example/1"),),
    streak_leaders=(("Alice", 5),),
    strongest=tuple(mastery_rows({"attention": 0.91, "gpu": 0.72})),
    weakest=tuple(reversed(mastery_rows({"storage": 0.33, "networking": 0.12}))),
    due_next_week=(("gpu", 2),),
    participation=WINDOW_DAYS,
    recall_trend=TREND,
    mastery_on=date(2027, 1, 3),
    median=50,  # of attention, gpu, rdma 50%, storage and networking
)
FIRST_DAY = date(2026, 9, 14)  # a Monday
ME = MeChart(
    title="Alice in #practice",
    mastery=mastery_rows({"attention": 0.88, "gpu": 0.4}),
    first_day=FIRST_DAY,
    answers_per_day=tuple((n % 5 == 0) * (1 + n % 3) for n in range(ACTIVITY_WEEKS * 7)),
)
NEWCOMER = MeChart("Dana in #practice", (), FIRST_DAY, (0,) * (ACTIVITY_WEEKS * 7))


def size_of(png: bytes) -> tuple[int, int]:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    with PilImage.open(io.BytesIO(png)) as image:
        image.verify()  # a complete, uncorrupted PNG
    with PilImage.open(io.BytesIO(png)) as image:
        return image.size


def bars(axes: object) -> list[Rectangle]:
    return [p for p in axes.patches if isinstance(p, Rectangle)]  # type: ignore[attr-defined]


def texts(axes: object) -> list[str]:
    return [t.get_text() for t in axes.texts]  # type: ignore[attr-defined]


def test_the_recap_chart_is_a_png_of_the_expected_size() -> None:
    png = chart_png.recap_png(recap_chart(RECAP))
    assert size_of(png) == (chart_png.WIDTH_PX, chart_png.HEIGHT_PX) == (1000, 500)


def test_the_me_chart_is_a_png_of_the_expected_size_with_data_and_without() -> None:
    assert size_of(chart_png.me_png(ME)) == (1000, 500)
    assert size_of(chart_png.me_png(NEWCOMER)) == (1000, 500)


def topic_names(axes: object) -> list[str]:
    """The topic names drawn above the bars, top to bottom, unwrapped."""
    return [
        t.get_text().replace("\n", "")
        for t in axes.texts  # type: ignore[attr-defined]
        if t.get_gid() == chart_png.TOPIC_NAME
    ]


def test_the_recap_chart_shows_the_figures_of_its_text() -> None:
    card = recap_card(RECAP)
    text = {f.name: f.value for f in card.fields}
    figure = chart_png.recap_figure(recap_chart(RECAP))
    mastery_axes, trend_axes, days_axes = figure.axes
    assert figure.get_suptitle() == card.title

    charted = dict(
        zip(
            topic_names(mastery_axes),
            [round(bar.get_width()) for bar in bars(mastery_axes)],
            strict=True,
        )
    )
    in_text = {}
    for name in ("Strongest topics", "Weakest topics"):
        listed, meaning = text[name].split(" (", 1)
        assert meaning.endswith("the team's median topic, 50%)")
        for item in listed.split(", "):
            topic, percent = item.rsplit(" ", 1)
            in_text[topic] = int(percent.rstrip("%"))
    assert (
        charted
        == in_text
        == {
            "attention": 91,
            "gpu": 72,
            "storage": 33,
            "networking": 12,
        }
    )
    shown = [t for t in texts(mastery_axes) if t not in in_text]
    assert sorted(shown) == sorted(f"{p}%" for p in in_text.values())

    per_day = [round(bar.get_height()) for bar in bars(days_axes)]
    labels = [label.get_text().replace("\n", " ") for label in days_axes.get_xticklabels()]
    assert labels == ["Fri 27", "Mon 30", "Tue 01", "Wed 02", "Thu 03", "Fri 04"]
    assert per_day == [1, 2, 1, 3, 1, 2]
    assert text["Members per day"] == (
        "Fri 27 Nov 1, Mon 30 Nov 2, Tue 01 Dec 1, Wed 02 Dec 3, Thu 03 Dec 1, Fri 04 Dec 2"
    )
    assert days_axes.get_title() and trend_axes.get_title() and trend_axes.get_xlabel()
    assert mastery_axes.get_xlabel() and mastery_axes.get_title(loc="left")


def test_the_me_chart_shows_the_figures_of_its_text() -> None:
    figure = chart_png.me_figure(ME)
    mastery_axes, calendar_axes = figure.axes
    widths = dict(
        zip(
            topic_names(mastery_axes),
            [round(bar.get_width()) for bar in bars(mastery_axes)],
            strict=True,
        )
    )
    assert widths == {"attention": 88, "gpu": 40}
    assert calendar_axes.get_title() == ME.activity_text == "34 answers on 17 days"
    assert activity_field(ME).value.startswith(ME.activity_text)
    cells = calendar_axes.images[0].get_array()
    assert cells is not None
    days = [ME.answers_per_day[week * 7 + day] for day in range(7) for week in range(12)]
    assert [int(c) for c in cells.flatten()] == [ME.calendar_step(n) for n in days]
    assert int((cells > 0).sum()) == ME.active_days
    legend = calendar_axes.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["0", "1", "2+"]


def test_a_member_with_no_data_gets_a_readable_chart() -> None:
    figure = chart_png.me_figure(NEWCOMER)
    mastery_axes, calendar_axes = figure.axes
    assert any(t.startswith("No grades yet") for t in texts(mastery_axes))
    assert "No answers yet" in texts(calendar_axes)
    assert calendar_axes.get_title() == "0 answers on 0 days"
    no_grades = tuple(RecallPoint(point.day, None) for point in TREND)
    recap = recap_chart(Recap("t", 1, 0, 0, 0, (), (), (), (), (), (), no_grades))
    mastery_axes, trend_axes, days_axes = chart_png.recap_figure(recap).axes
    assert any(t.startswith("No grades yet") for t in texts(mastery_axes))
    assert "No grades yet" in texts(trend_axes)
    assert "No scheduled day" in texts(days_axes)


def test_charts_use_a_shipped_font_and_colour_blind_safe_colours() -> None:
    from matplotlib.text import Text

    assert chart_png.FONT == "DejaVu Sans"
    for figure in (chart_png.recap_figure(recap_chart(RECAP)), chart_png.me_figure(ME)):
        figure.canvas.draw()  # the ticks and their labels exist once drawn
        shown = [t for t in figure.findobj(Text) if t.get_visible() and t.get_text()]
        assert len(shown) > 20
        assert {tuple(t.get_fontfamily()) for t in shown} == {("DejaVu Sans",)}
    okabe_ito = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}
    assert {chart_png.BLUE, chart_png.VERMILLION} <= okabe_ito


def test_rendering_does_not_touch_global_matplotlib_settings() -> None:
    import matplotlib

    before = dict(matplotlib.rcParams)
    chart_png.recap_png(recap_chart(RECAP))
    assert dict(matplotlib.rcParams) == before


def test_starting_the_bot_does_not_import_matplotlib() -> None:
    code = (
        "import sys\n"
        "import adapters.cli.main, adapters.ops.runtime, adapters.console.session\n"
        "import bot.service, bot.recaps.weekly, bot.recaps._progress_chart, bot.recaps.chart_png\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


def test_a_chart_keeps_its_data_in_plain_types() -> None:
    chart = recap_chart(RECAP)
    assert isinstance(chart, RecapChart)
    assert chart.participation == RECAP.participation
    assert chart.recall_trend == RECAP.recall_trend


class _GatedDays(Sequence[DayParticipation]):
    """Members per day that, once a render reads them, say so (``reached``) and make it
    wait for ``gate``: the test decides where two renders interleave."""

    def __init__(self, days: Sequence[DayParticipation]) -> None:
        self._days = tuple(days)
        self.reached, self.gate = threading.Event(), threading.Event()

    def __len__(self) -> int:
        self._wait()
        return len(self._days)

    @overload
    def __getitem__(self, index: int) -> DayParticipation: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[DayParticipation]: ...

    def __getitem__(self, index: int | slice) -> DayParticipation | Sequence[DayParticipation]:
        self._wait()
        return self._days[index]

    def _wait(self) -> None:
        self.reached.set()
        assert self.gate.wait(timeout=60)

    def chart(self) -> RecapChart:
        days = cast(tuple[DayParticipation, ...], self)
        return dataclasses.replace(recap_chart(RECAP), participation=days)


def test_renders_in_threads_that_overlap_neither_interfere_nor_touch_global_settings() -> None:
    import matplotlib

    expected = chart_png.recap_png(recap_chart(RECAP))
    before = dict(matplotlib.rcParams)
    first, second = _GatedDays(RECAP.participation), _GatedDays(RECAP.participation)
    with ThreadPoolExecutor(max_workers=2) as pool:
        # the first render stops halfway, the second starts and stops halfway too, the
        # first finishes, then the second: a setting they shared would change under it
        first_png = pool.submit(chart_png.recap_png, first.chart())
        assert first.reached.wait(timeout=60)
        during = dict(matplotlib.rcParams)
        second_png = pool.submit(chart_png.recap_png, second.chart())
        assert second.reached.wait(timeout=60)
        first.gate.set()
        assert first_png.result(timeout=60) == expected
        second.gate.set()
        assert second_png.result(timeout=60) == expected
    assert during == before, "a render in progress changed matplotlib's global settings"
    assert dict(matplotlib.rcParams) == before


def test_many_renders_at_once_from_threads_are_all_identical() -> None:
    import matplotlib

    def render(job: str) -> bytes:
        return chart_png.recap_png(recap_chart(RECAP)) if job == "recap" else chart_png.me_png(ME)

    expected = {job: render(job) for job in ("recap", "me")}
    before = dict(matplotlib.rcParams)
    jobs = ["recap", "me"] * 6
    with ThreadPoolExecutor(max_workers=6) as pool:
        pngs = list(pool.map(render, jobs))
    assert [png == expected[job] for png, job in zip(pngs, jobs, strict=True)] == [True] * 12
    assert dict(matplotlib.rcParams) == before
