"""One private practice choice on a year of history: wall time and event-loop stall.

Builds a member with a year of daily grades (``--per-day`` a day, about half of them
reviews of questions already seen) over a bank of ``--questions`` questions, their FSRS
cards as the store keeps them, and a goal ``--goal-days`` ahead; 50 other members with
the same amount of history share the grades table. Then times ``--choices`` choices of
``LearningService.choose_practice`` against the choice as it was computed before (the
whole grade log read for the pace, every forecast on the event loop: the reference in
``tests/practice_reference.py``), alternating, on the same store, with a ticker task
waking every millisecond beside them. Prints per path the median and worst wall time of
a choice and the longest the ticker waited beyond its millisecond (the stall every other
channel's events see), the same for the ticker alone over a 50 ms sleep (what the
machine's load alone costs it) and beside 50 ms of Python spinning in a worker thread (the
floor of any work moved to a thread: the loop waits for the GIL to be handed over, every
5 ms at best), checks both paths chose the same questions, and the ratios.
Target: a stall under 10 ms.

    PYTHONPATH=. python bench/practice_choice.py [--questions 600] [--per-day 10]
        [--goal-days 90] [--choices 15]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.kernel.grades import Grade
from bot.learning import memory_model
from bot.learning.service import LearningService
from storage.sqlite.store import SqliteStore
from storage.timestamps import to_db
from tests import practice_reference

NOW = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
DAYS = 365
OTHER_MEMBERS = 50
TOPICS = ("gpu", "networking", "storage", "databases", "security", "systems")
GRADE_WEIGHTS = (1, 2, 4, 2)  # missed, partly, good, nailed
TARGET_STALL_MS = 10.0


def history(rng: random.Random, questions: int, per_day: int) -> list[tuple[int, Grade, datetime]]:
    """A year of daily grades: half reviews of questions seen, half any question."""
    seen: list[int] = []
    grades = []
    for day in range(DAYS, 0, -1):
        for n in range(per_day):
            if seen and n % 2 == 0:
                question = rng.choice(seen)
            else:
                question = rng.randrange(1, questions + 1)
                seen.append(question)
            grade = rng.choices(list(Grade), GRADE_WEIGHTS)[0]
            at = NOW - timedelta(days=day, hours=rng.uniform(0, 12))
            grades.append((question, grade, at))
    return grades


def build(path: Path, questions: int, per_day: int, goal_days: int) -> None:
    async def migrate() -> None:
        async with SqliteStore.open(path):
            pass

    asyncio.run(migrate())
    rng = random.Random(7)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO questions (id, pack, question, topic, content_hash)"
            " VALUES (?, 'bench', ?, ?, 'h')",
            ((q, f"q{q}", TOPICS[q % len(TOPICS)]) for q in range(1, questions + 1)),
        )
        conn.executemany(
            "INSERT INTO members (id, platform, workspace, member) VALUES (?, 'slack', 'W', ?)",
            ((m, f"U{m}") for m in range(1, OTHER_MEMBERS + 2)),
        )
        for member in range(1, OTHER_MEMBERS + 2):
            grades = history(rng, questions, per_day)
            conn.executemany(
                "INSERT INTO grades (member_id, question_id, rating, graded_at)"
                " VALUES (?, ?, ?, ?)",
                ((member, q, int(g), to_db(at)) for q, g, at in grades),
            )
            if member != 1:
                continue
            by_question: dict[int, list[memory_model.LoggedGrade]] = defaultdict(list)
            for q, g, at in grades:
                by_question[q].append(memory_model.LoggedGrade(g, at))
            for q, log in by_question.items():
                card = memory_model.member_card(q, log)
                assert card is not None
                conn.execute(
                    "INSERT INTO member_cards (member_id, question_id, stability, difficulty,"
                    " due, last_review, reviews) VALUES (1, ?, ?, ?, ?, ?, ?)",
                    (
                        q,
                        card.stability,
                        card.difficulty,
                        to_db(card.due),
                        to_db(card.last_review),
                        card.reviews,
                    ),
                )
        goal = (NOW + timedelta(days=goal_days)).date().isoformat()
        conn.execute("INSERT INTO member_goals (member_id, target_date) VALUES (1, ?)", (goal,))
        conn.execute("COMMIT")


async def timed(choice: Callable[[], Awaitable[int | None]]) -> tuple[float, float, int | None]:
    """The wall time of one choice and the longest a 1 ms ticker beside it overslept (ms)."""
    done = asyncio.Event()
    worst = 0.0

    async def ticker() -> None:
        nonlocal worst
        while not done.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            worst = max(worst, time.perf_counter() - before - 0.001)

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0.005)  # the ticker is running
    started = time.perf_counter()
    chosen = await choice()
    wall = time.perf_counter() - started
    done.set()
    await ticking
    return wall * 1000, worst * 1000, chosen


async def idle() -> None:
    await asyncio.sleep(0.05)


def spin() -> None:
    end = time.perf_counter() + 0.05
    while time.perf_counter() < end:
        pass


async def busy_thread() -> None:
    await asyncio.to_thread(spin)


async def measure(path: Path, questions: int, choices: int) -> None:
    topics = {q: TOPICS[q % len(TOPICS)] for q in range(1, questions + 1)}
    async with SqliteStore.open(path) as store:
        learning = LearningService(store.learning, lambda: topics)
        paths: dict[str, Callable[[datetime], Awaitable[int | None]]] = {
            "before": lambda at: practice_reference.choose_practice(learning, 1, at),
            "after": lambda at: learning.choose_practice(1, at),
        }
        paths["idle"] = lambda at: idle()  # the ticker alone: the machine's own noise
        # any Python work in a worker thread: the loop waits for the GIL to be handed over
        paths["thread"] = lambda at: busy_thread()
        results: dict[str, list[tuple[float, float, int | None]]] = {p: [] for p in paths}
        for n in range(choices + 1):  # the first round warms the caches up
            at = NOW + timedelta(minutes=n)
            for name, choose in paths.items():
                result = await timed(lambda: choose(at))  # noqa: B023 (awaited at once)
                if n:
                    results[name].append(result)
    print(f"{questions} questions, {choices} choices per path, alternating")
    for name, rows in results.items():
        walls = [r[0] for r in rows]
        stalls = [r[1] for r in rows]
        print(
            f"{name:>6}: wall median {statistics.median(walls):7.1f} ms, worst"
            f" {max(walls):7.1f} ms; ticker stall median {statistics.median(stalls):6.1f} ms,"
            f" worst {max(stalls):6.1f} ms"
        )
    same = [r[2] for r in results["before"]] == [r[2] for r in results["after"]]
    before, after = results["before"], results["after"]
    wall_ratio = statistics.median(r[0] for r in before) / statistics.median(r[0] for r in after)
    stall_ratio = statistics.median(r[1] for r in before) / statistics.median(r[1] for r in after)
    worst_stall = max(r[1] for r in after)
    print(f"same questions chosen: {same}")
    print(
        f"practice choice: {wall_ratio:.1f}x faster, stall {stall_ratio:.1f}x shorter;"
        f" worst stall {worst_stall:.1f} ms (target < {TARGET_STALL_MS:.0f} ms:"
        f" {'met' if worst_stall < TARGET_STALL_MS else 'NOT met'})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=600)
    parser.add_argument("--per-day", type=int, default=10)
    parser.add_argument("--goal-days", type=int, default=90)
    parser.add_argument("--choices", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        path = Path(workdir) / "practice.db"
        started = time.perf_counter()
        build(path, args.questions, args.per_day, args.goal_days)
        took = time.perf_counter() - started
        print(f"built {DAYS} days x {args.per_day} grades a day in {took:.1f} s")
        asyncio.run(measure(path, args.questions, args.choices))


if __name__ == "__main__":
    main()
