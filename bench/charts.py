"""Chart rendering cost: median and p99 time to render each chart to PNG, after a warm-up.

Renders the weekly recap's chart and ``/quiz me``'s chart, each with data and for a
channel or member with none yet, ``--renders`` times after one warm-up render, and
prints one line per chart::

    recap: median 89.0 ms p99 120.0 ms

Targets: a median of at most 150 ms and a p99 of at most 300 ms per chart. It also
measures, in fresh interpreters, the imports ``quizbot run`` makes at start-up (which
must not load matplotlib) against importing matplotlib's Agg renderer, the cost the
first chart pays instead.

    python bench/charts.py [--renders 100]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.recaps import chart_png
from bot.recaps.chart_data import (
    ACTIVITY_WEEKS,
    TREND_WEEKS,
    DayParticipation,
    MeChart,
    RankedTopic,
    RecallPoint,
    RecapChart,
    Standing,
    mastery_rows,
)

TARGET_MEDIAN_MS = 150.0
TARGET_P99_MS = 300.0
TOPICS = {
    "attention": 0.91,
    "gpu-architecture": 0.74,
    "networking": 0.62,
    "rdma": 0.48,
    "storage": 0.31,
    "kv-cache": 0.12,
}
FIRST_DAY = date(2026, 9, 7)
STARTUP_IMPORTS = "import adapters.cli.main, adapters.ops.runtime, bot.service, bot.recaps.weekly"


def charts() -> dict[str, Callable[[], bytes]]:
    days = ACTIVITY_WEEKS * 7
    title = "Weekly recap · 27 Nov – 04 Dec 2026"
    ranked = tuple(
        RankedTopic(row.topic, row.percent, Standing.STRONGEST if n < 3 else Standing.WEAKEST)
        for n, row in enumerate(mastery_rows(TOPICS))
    )
    weeks = [date(2026, 10, 16) + timedelta(weeks=n) for n in range(TREND_WEEKS)]
    trend = tuple(RecallPoint(day, 40 + 4 * n) for n, day in enumerate(weeks))
    week_days = tuple(
        DayParticipation(date(2026, 11, 30) + timedelta(days=n), members)
        for n, members in enumerate((4, 3, 5, 2, 4))
    )
    recap = RecapChart(title, ranked, trend, week_days, date(2027, 1, 3))
    empty_recap = RecapChart(
        title,
        (),
        tuple(RecallPoint(day, None) for day in weeks),
        (DayParticipation(date(2026, 11, 30), 1),),
    )
    me = MeChart(
        "alice in #practice",
        mastery_rows(TOPICS),
        FIRST_DAY,
        tuple((n * 7 % 5 > 1) * (1 + n % 3) for n in range(days)),
    )
    newcomer = MeChart("dana in #practice", (), FIRST_DAY, (0,) * days)
    return {
        "recap": lambda: chart_png.recap_png(recap),
        "recap (no grades)": lambda: chart_png.recap_png(empty_recap),
        "me": lambda: chart_png.me_png(me),
        "me (no data)": lambda: chart_png.me_png(newcomer),
    }


def timed(render: Callable[[], bytes], renders: int) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of each render (on a busy machine, CPU time is what a
    render costs and wall time also counts waiting for a core)."""
    render()  # warm-up: the first render loads matplotlib and its font cache
    wall, cpu = [], []
    for _ in range(renders):
        started, started_cpu = time.perf_counter(), time.process_time()
        render()
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return wall, cpu


def p99(times: list[float]) -> float:
    return statistics.quantiles(times, n=100, method="inclusive")[98]


def import_ms(code: str) -> tuple[float, str]:
    """Median wall time of ``code`` in a fresh interpreter (3 runs), and its output."""
    root = Path(__file__).resolve().parent.parent
    script = (
        "import time, sys; started = time.perf_counter()\n"
        f"{code}\n"
        "print((time.perf_counter() - started) * 1000, "
        "any(m.split('.')[0] == 'matplotlib' for m in sys.modules))"
    )
    runs = []
    for _ in range(3):
        out = subprocess.run(
            [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True
        ).stdout.split()
        runs.append((float(out[0]), out[1]))
    runs.sort()
    return runs[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=100)
    args = parser.parse_args()
    within = True
    cpu_lines = []
    for name, render in charts().items():
        wall, cpu = timed(render, args.renders)
        median, high = statistics.median(wall), p99(wall)
        within &= median <= TARGET_MEDIAN_MS and high <= TARGET_P99_MS
        print(f"{name}: median {median:.1f} ms p99 {high:.1f} ms")
        cpu_lines.append(
            f"{name} (CPU): median {statistics.median(cpu):.1f} ms p99 {p99(cpu):.1f} ms"
        )
    print(
        f"targets: median <= {TARGET_MEDIAN_MS:.0f} ms, p99 <= {TARGET_P99_MS:.0f} ms: "
        f"{'met' if within else 'MISSED'}"
    )
    print("\n".join(cpu_lines))
    startup, loaded = import_ms(STARTUP_IMPORTS)
    agg, _ = import_ms("import matplotlib.figure, matplotlib.backends.backend_agg")
    print(f"start-up imports: {startup:.0f} ms, matplotlib loaded: {loaded}")
    print(
        f"matplotlib + Agg import (paid by the first chart instead): {agg:.0f} ms "
        f"({agg / startup:.2f}x the start-up imports)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
