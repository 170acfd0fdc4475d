"""Reveal latency after a restart on a year of history: reaction in, outline handed out.

Builds (or reuses, with ``--keep``) the 1,000,000-answer database of
``bench/leaderboard.py`` and adds what a running bot leaves behind: every round
posted, threaded and revealed, five completed outbox actions per round, and a
``processed_events`` row per answer and per reaction. It starts the service on
it and stops it (so the store's close-time ``PRAGMA optimize`` has run, as after
any restart), starts it again, and then, one at a time, hands the service a
reveal reaction for ``--reveals`` rounds. Retention is set to ten years, so the
history stays as built (and a kept database can be measured again). It prints
p50 and p99 of the time from the event entering ``QuizService.handle`` until the
platform is handed the outline.
``--fresh`` measures a first run instead, each on a copy of the database as it was
built, imported or copied with a year of history and never opened by the bot (the
first start after ``quizbot db copy``, or after an upgrade): no planner statistics
(``sqlite_stat1`` dropped), no start/stop first, and the bot's default retention (30
days of outbox actions, 7 days of event ids), so the first retention pass, a few
million rows to delete, runs while the reveals are timed.
Target: p99 <= 5 ms.

    python bench/reveal.py [--reveals 300] [--fresh] [--keep PATH]
                           (plus leaderboard.py's build options)
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
from bench_platform import BenchPlatform
from leaderboard import build as build_answers

from bot.kernel.clock import SystemClock
from bot.kernel.config import QuizConfig
from bot.kernel.events import Reaction
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef
from bot.service import QuizService
from questions.loader import load_catalog
from storage.sqlite.store import SqliteStore

TARGET_P99_MS = 5.0
EMOJI = "💡"
KINDS = ("question", "thread", "hint", "follow_ups", "outline")


async def _create_schema(path: Path) -> None:
    async with SqliteStore.open(path):
        pass


def add_history(path: Path, seed: int) -> None:
    """Rounds posted and revealed, their done outbox rows, and the inbound event rows."""
    rng = random.Random(seed)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        conn.execute("UPDATE channels SET platform = 'slack', reveal_emoji = ?", (EMOJI,))
        conn.execute("UPDATE members SET platform = 'slack'")
        conn.execute(
            "UPDATE rounds SET question_message = 'm' || id, thread = 't' || id,"
            " revealed_at = scheduled_for, closed_at = scheduled_for"
        )
        rounds = conn.execute("SELECT id, scheduled_for FROM rounds").fetchall()
        conn.executemany(
            "INSERT INTO outbox (round_id, kind, key, state, attempts, next_attempt_at,"
            " created_at, updated_at, result_ref) VALUES (?, ?, ?, 'done', 1, ?, ?, ?, ?)",
            (
                (rid, kind, f"round:{rid}:{kind}", at, at, at, f"r{rid}{kind}")
                for rid, at in rounds
                for kind in KINDS
            ),
        )
        # One event per answer, and reactions: on average one and a half per answer.
        answers = conn.execute("SELECT id, answered_at FROM answers").fetchall()
        conn.executemany(
            "INSERT INTO processed_events (platform, event_id, processed_at) VALUES (?, ?, ?)",
            (
                ("slack", f"{kind}{aid}.{n}", at)
                for aid, at in answers
                for kind, n in [("a", 0)] + [("r", k) for k in range(rng.choice((0, 1, 1, 2, 3)))]
            ),
        )
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _pick_rounds(path: Path, count: int, seed: int) -> list[tuple[int, str, str]]:
    """``count`` random rounds, made unrevealed again: (round id, channel, message). Not a
    channel's latest round: closed and unrevealed, that one was skipped by an admin, and
    its outline stays unposted."""
    rng = random.Random(seed)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        ids = [
            row[0]
            for row in conn.execute(
                "SELECT id FROM rounds EXCEPT"
                " SELECT id FROM (SELECT id, MAX(number) FROM rounds GROUP BY channel_id)"
            )
        ]
        chosen = rng.sample(ids, count)
        conn.execute("BEGIN")
        conn.executemany(
            "UPDATE rounds SET revealed_at = NULL WHERE id = ?", ((rid,) for rid in chosen)
        )
        conn.executemany(
            "DELETE FROM outbox WHERE round_id = ? AND kind IN ('follow_ups', 'outline')",
            ((rid,) for rid in chosen),
        )
        conn.execute("COMMIT")
        marks = ", ".join("?" * len(chosen))
        return [
            (row[0], row[1], row[2])
            for row in conn.execute(
                f"SELECT r.id, c.channel, r.question_message FROM rounds r"
                f" JOIN channels c ON c.id = r.channel_id WHERE r.id IN ({marks})",
                chosen,
            )
        ]


def _service(store: SqliteStore, platform: BenchPlatform, *, prune: bool = False) -> QuizService:
    """The bot; ``prune``: with its default retention, else keeping ten years of history."""
    return QuizService(
        store=store,
        platforms={"slack": platform},
        catalog=load_catalog(),
        clock=SystemClock(),
        config=QuizConfig()
        if prune
        else QuizConfig(outbox_retention_days=3650, event_retention_days=3650),
        background=True,
    )


async def _point_rounds_at_a_real_question(path: Path) -> None:
    catalog = load_catalog()
    async with SqliteStore.open(path) as store:
        ids = await store.rounds.sync_questions(catalog.keys())
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("UPDATE rounds SET question_id = ?", (min(ids.values()),))


@dataclass
class Run:
    """One restart's timed reveals: latencies (ms), process CPU per reveal (ms), round
    trips to SQLite's thread per reveal, and the full (generation 2) garbage collections
    that ran during them (ms each). On a loaded machine each round trip waits for two
    thread wake-ups, so their number is what the latency is most exposed by."""

    samples: list[float] = field(default_factory=list)
    cpu_ms: float = 0.0
    round_trips: list[int] = field(default_factory=list)  # to the store, until the outline
    full_collections: list[float] = field(default_factory=list)


def first_run_copy(path: Path, copy: Path) -> Path:
    """A copy of the built database for one first run (its retention pass prunes it)."""
    with closing(sqlite3.connect(path)) as source, closing(sqlite3.connect(copy)) as target:
        source.backup(target)
    return copy


def drop_statistics(path: Path) -> None:
    """The database as before any ANALYZE: no planner statistics at all."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        for (table,) in conn.execute(
            "SELECT name FROM sqlite_schema WHERE name LIKE 'sqlite_stat%'"
        ).fetchall():
            conn.execute(f"DROP TABLE {table}")


async def measure(
    path: Path, picked: list[tuple[int, str, str]], warm_up: int, *, freeze: bool, fresh: bool
) -> Run:
    if fresh:
        drop_statistics(path)  # a copy: see first_run_copy
    else:
        # The first run leaves the database as a stopped bot does (close runs PRAGMA optimize).
        async with SqliteStore.open(path) as store:
            service = _service(store, BenchPlatform("slack"))
            await service.start()
            await service.stop()
    outlines: dict[str, asyncio.Future[float]] = {}

    def observe(method: str, key: str, at: float) -> None:
        future = outlines.get(key)
        if method == "reply" and future is not None and not future.done():
            future.set_result(at)

    result = Run()
    collecting = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            collecting[0] = time.perf_counter()
        elif timing:
            result.full_collections.append((time.perf_counter() - collecting[0]) * 1000)

    timing = False
    rng = random.Random(1)
    run = time.time_ns()  # event ids new to a reused database
    async with SqliteStore.open(path) as store:
        service = _service(store, BenchPlatform("slack", observe), prune=fresh)
        await service.start()
        if freeze:  # as the bot does once it is up
            from adapters.ops.heap import freeze_start_up_heap

            freeze_start_up_heap()
        gc.callbacks.append(on_gc)
        calls = _count_round_trips()
        try:
            for index, (round_id, channel, message) in enumerate(picked):
                ref = ChannelRef("slack", "w", channel)
                member = MemberRef("slack", "w", f"U{rng.randrange(1, 10_000)}")
                message_ref = MessageRef(ref, message)
                event = Reaction(f"bench-{run}-{index}", ref, message_ref, member, EMOJI)
                handed = asyncio.get_running_loop().create_future()
                outlines[f"round:{round_id}:outline"] = handed
                if index == warm_up:
                    timing, cpu = True, time.process_time()
                calls.clear()
                started = time.perf_counter()
                await service.handle(event)
                at = await asyncio.wait_for(handed, 30)
                if timing:
                    result.samples.append((at - started) * 1000)
                    result.round_trips.append(sum(1 for t in calls if t <= at))
            result.cpu_ms = (time.process_time() - cpu) * 1000 / len(result.samples)
        finally:
            _count_round_trips(stop=True)
            gc.callbacks.remove(on_gc)
            await service.stop()
            gc.unfreeze()
    return result


_EXECUTE: Callable[..., Awaitable[Any]] = aiosqlite.Connection._execute


def _count_round_trips(*, stop: bool = False) -> list[float]:
    """Note when each call is handed to aiosqlite's thread (its one way of running
    anything there); ``stop`` puts the original back."""
    if stop:
        aiosqlite.Connection._execute = _EXECUTE  # type: ignore[method-assign, assignment]
        return []
    calls: list[float] = []

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(time.perf_counter())
        return await _EXECUTE(self, fn, *args, **kwargs)

    aiosqlite.Connection._execute = counted  # type: ignore[method-assign]
    return calls


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--answers", type=int, default=1_000_000)
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--pool", type=int, default=60)
    parser.add_argument("--per-round", type=int, default=20)
    parser.add_argument("--reveals", type=int, default=300, help="timed reveals")
    parser.add_argument("--warm-up", type=int, default=20, help="untimed reveals first")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--repeats", type=int, default=2, help="restarts, each timing --reveals reveals"
    )
    parser.add_argument("--keep", type=Path, help="build (or reuse) this file instead of a temp")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="a first run: no planner statistics, no start/stop before the timed reveals",
    )
    parser.add_argument(
        "--no-freeze",
        action="store_true",
        help="leave the start-up heap to the full collections (as before the bot froze it)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp, "reveal.db")
        if not path.exists():
            started = time.perf_counter()
            asyncio.run(_create_schema(path))
            build_answers(path, args)
            add_history(path, args.seed)
            asyncio.run(_point_rounds_at_a_real_question(path))
            print(f"built {path} in {time.perf_counter() - started:.1f} s")
        with closing(sqlite3.connect(path)) as conn:
            counts = {
                table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                for table in ("answers", "rounds", "outbox", "processed_events")
            }
        print("history: " + ", ".join(f"{n:,} {table}" for table, n in counts.items()))
        each = args.reveals + args.warm_up
        picked = _pick_rounds(path, each * args.repeats, args.seed + len(counts))
        samples: list[float] = []
        cpu: list[float] = []
        trips: list[int] = []
        for n in range(args.repeats):
            chosen = picked[n * each : (n + 1) * each]
            target = first_run_copy(path, Path(tmp, "first-run.db")) if args.fresh else path
            run = asyncio.run(
                measure(target, chosen, args.warm_up, freeze=not args.no_freeze, fresh=args.fresh)
            )
            if args.fresh:
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{target}{suffix}").unlink(missing_ok=True)
            samples += run.samples
            cpu.append(run.cpu_ms)
            trips += run.round_trips
            p50, p99 = statistics.median(run.samples), _percentile(run.samples, 0.99)
            full = ", ".join(f"{ms:.1f}" for ms in run.full_collections) or "none"
            print(
                f"  {'first run' if args.fresh else 'restart'} {n + 1}"
                f" ({len(run.samples)} reveals): p50 {p50:6.2f} ms"
                f"   p99 {p99:6.2f} ms   CPU {run.cpu_ms:5.2f} ms/reveal"
                f"   store round trips {statistics.median(run.round_trips):.0f}"
                f"   full GCs meanwhile (ms): {full}"
            )
    p50, p99 = statistics.median(samples), _percentile(samples, 0.99)
    verdict = "ok" if p99 <= TARGET_P99_MS else "MISSED"
    print(
        f"reveal {'on a first run' if args.fresh else 'after a restart'} ({len(samples)} reveals):"
        f" p50 {p50:6.2f} ms   p99 {p99:6.2f} ms"
        f"   CPU {statistics.median(cpu):5.2f} ms/reveal"
        f"   store round trips {statistics.median(trips):.0f}"
        f"   (target p99 <= {TARGET_P99_MS:.0f} ms: {verdict})"
    )


if __name__ == "__main__":
    main()
