"""A team's 90 days in one running process, on SQLite, on PostgreSQL and on two PostgreSQL
replicas: every post once, at its local time, asserted from what the platform received.

The soak of the tests (``tests/soak``, a week of it in
``tests/core/scheduling/test_a_week_in_one_process.py``) made long and wide: ``--channels`` channels
in as many timezones (Berlin, New York, Tokyo, Sydney, Kolkata: three daylight-saving
changes fall inside the 90 days from Monday 2031-02-03), each posting daily at its own
time with reveal-after 4h and a last call 1h before it, the weekly recap and pairing, five
members (notices, reminders in three more zones, answers, reveals, grades), four holidays
and four periods away. The services run with their schedulers and outbox workers; the
fake clock jumps to the next thing due (``tests/soak/time_machine.py``). With two
replicas, the members' events alternate between them.

Prints per run: simulated days, channels, moments the clock stopped at, posts received,
posts expected, misses, duplicates, posts at another time, posts not expected, answers
handled but not stored (a replica that did not know the round), the wall time of the
days, per simulated day, and its ratio to the SQLite run of the same invocation (the
baseline); the last two weeks' wall time against the first two weeks' (about 1: nothing
piles up over the days); resident memory after the run. Then the first problems, if any.
Exits non-zero when a run had one.

    PYTHONPATH=. python bench/soak.py [--days 90] [--channels 5] [--runs sqlite,postgres,replicas]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import date, time
from pathlib import Path

from bot.store import Store
from storage.postgres.store import PostgresStore
from storage.sqlite.store import SqliteStore
from tests.soak.run import LEASE, SoakRun, soak
from tests.soak.scenario import SoakChannel, SoakPlan
from tests.storage.backends import postgres_schema

FIRST_DAY = date(2031, 2, 3)  # a Monday
ZONES = (
    # channel zone, its slot, and the reminders of ann, dan and eve
    ("Europe/Berlin", time(9, 0), ("Europe/Berlin", "Asia/Tokyo", "America/New_York")),
    ("America/New_York", time(9, 30), ("America/Chicago", "Europe/London", "America/New_York")),
    ("Asia/Tokyo", time(10, 0), ("Asia/Tokyo", "Australia/Sydney", "Asia/Kolkata")),
    ("Australia/Sydney", time(8, 45), ("Australia/Sydney", "Pacific/Auckland", "Asia/Tokyo")),
    ("Asia/Kolkata", time(11, 15), ("Asia/Kolkata", "Europe/Berlin", "UTC")),
)
REMINDER_TIMES = (time(8, 0), time(7, 30), time(21, 0))
HOLIDAYS = (2, 24, 51, 80)  # Wednesdays and Thursdays
AWAY = ((6, 7), (34, 35), (62, 66), (84, 84))  # two of them over a Monday's pairing
SHOWN_PROBLEMS = 15


def soak_plan(days: int, channels: int) -> SoakPlan:
    return SoakPlan(
        first_day=FIRST_DAY,
        days=days,
        channels=tuple(
            SoakChannel(
                number=n + 1,
                timezone=zone,
                at=at,
                reminders={
                    role: (when, where)
                    for role, when, where in zip(
                        ("ann", "dan", "eve"), REMINDER_TIMES, reminder_zones, strict=True
                    )
                },
                solo=channels == 1,
            )
            for n, (zone, at, reminder_zones) in enumerate(ZONES[:channels])
        ),
        holidays=tuple(h for h in HOLIDAYS if h < days),
        away=tuple(a for a in AWAY if a[1] < days),
    )


@asynccontextmanager
async def stores(run: str) -> AsyncIterator[list[Store]]:
    """The stores of one run: a SQLite file, a PostgreSQL schema, or two replicas' stores
    on one schema."""
    async with AsyncExitStack() as stack:
        if run == "sqlite":
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            yield [await stack.enter_async_context(SqliteStore.open(Path(folder) / "soak.db"))]
            return
        url = await stack.enter_async_context(postgres_schema())
        names = ("a", "b") if run == "replicas" else ("a",)
        yield [
            await stack.enter_async_context(PostgresStore.open(url, replica=name, lease=LEASE))
            for name in names
        ]


@dataclass
class Outcome:
    run: str
    soak: SoakRun
    rss_mb: float

    def line(self, days: int, channels: int, baseline: float | None) -> str:
        r = self.soak.result
        per_day = self.soak.wall_seconds / days
        ratio = "" if baseline is None else f", {self.soak.wall_seconds / baseline:.2f}x SQLite"
        return (
            f"{self.run:9} {days} days, {channels} channels, {self.soak.moments} moments: "
            f"received {r.received}, expected {r.expected}; misses {r.misses}, "
            f"duplicates {r.duplicates}, at another time {r.wrong_time}, "
            f"not expected {r.unexpected}; answers not stored {len(self.soak.unsaved)} "
            f"of {self.soak.answers}; "
            f"{self.soak.wall_seconds:.1f} s "
            f"({per_day * 1000:.0f} ms a day{ratio}); last/first two weeks "
            f"{drift(self.soak.day_seconds):.2f}; RSS {self.rss_mb:.0f} MB"
        )


def drift(day_seconds: list[float], span: int = 14) -> float:
    """The last ``span`` days' wall time over the first ``span`` days' (two whole weeks
    each: the same recaps and pairings)."""
    if len(day_seconds) < 2 * span:
        return float("nan")
    first = sum(day_seconds[:span])
    return sum(day_seconds[-span:]) / first if first > 0 else float("nan")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--channels", type=int, default=len(ZONES), choices=range(1, 6))
    parser.add_argument("--runs", default="sqlite,postgres,replicas")
    args = parser.parse_args()
    plan = soak_plan(args.days, args.channels)
    outcomes: list[Outcome] = []
    baseline: float | None = None
    for run in args.runs.split(","):
        async with stores(run) as opened:
            result = await soak(plan, opened)
        outcome = Outcome(run, result, rss_mb())
        outcomes.append(outcome)
        if run == "sqlite":
            baseline = result.wall_seconds
        print(outcome.line(args.days, args.channels, baseline if run != "sqlite" else None))
        print(f"          expected: {result.result.summary()}", flush=True)
    failed = False
    for outcome in outcomes:
        extra = outcome.soak.refused + outcome.soak.failures
        extra += [f"answer not stored: {answer}" for answer in outcome.soak.unsaved]
        problems = outcome.soak.result.problems + extra
        if problems:
            failed = True
            print(f"{outcome.run}: {len(problems)} problem(s), the first:")
            for problem in problems[:SHOWN_PROBLEMS]:
                print(f"  {problem}")
    print("soak:", "PROBLEMS" if failed else "every post once, at its time, on every run")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
