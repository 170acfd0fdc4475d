"""Leaderboard latency: a week's and the all-time top 10 of a channel over 1,000,000 answers.

Builds a database of ``--answers`` answers from ``--members`` members over
``--channels`` channels (a year of daily rounds; each channel has its own pool
of regulars drawn from all members), then times ``SqliteStore.leaderboard``
for random channels and prints the median and p99 against the target
(p99 <= 5 ms). It also times the board's SQL against the answers-only board of before the
approved-suggestion bonuses (the same channels, the same run) and prints the ratio.

    python bench/leaderboard.py [--answers 1000000] [--members 10000] [--channels 200]
                                [--queries 300] [--keep PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from storage.report_queries import LEADERBOARD
from storage.sqlite.store import SqliteStore
from storage.timestamps import from_db, to_db

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
TARGET_P99_MS = 5.0


async def _create_schema(path: Path) -> None:
    async with SqliteStore.open(path):
        pass


def build(path: Path, args: argparse.Namespace) -> float:
    """Fill the database with plain sqlite3 (bulk executemany in big transactions)."""
    started = time.perf_counter()
    rng = random.Random(args.seed)
    rounds_per_channel = max(1, args.answers // (args.channels * args.per_round))
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = OFF")  # a throw-away file
        # Indexes are cheaper built once at the end than kept up to date row by row.
        indexes = conn.execute(
            "SELECT name, sql FROM sqlite_master"
            " WHERE type = 'index' AND tbl_name = 'answers' AND sql IS NOT NULL"
        ).fetchall()
        conn.execute("BEGIN")
        for name, _ in indexes:
            conn.execute(f"DROP INDEX {name}")
        conn.executemany(
            "INSERT INTO members (id, platform, workspace, member, display_name)"
            " VALUES (?, 'bench', 'w', ?, ?)",
            ((m, f"U{m}", f"member {m}") for m in range(1, args.members + 1)),
        )
        conn.execute(
            "INSERT INTO questions (id, pack, question, topic, content_hash)"
            " VALUES (1, 'bench', 'q', 'gpu', 'h')"
        )
        conn.executemany(
            "INSERT INTO channels (id, platform, workspace, channel, timezone, reveal_emoji,"
            " reveal_min_reactors, followup_policy, grace_hours)"
            " VALUES (?, 'bench', 'w', ?, 'UTC', 'x', 1, 'after_first_answer', 6)",
            ((c, f"C{c}") for c in range(1, args.channels + 1)),
        )
        conn.executemany(
            "INSERT INTO rounds (id, channel_id, question_id, number, scheduled_for, scheduled,"
            " state, created_at) VALUES (?, ?, 1, ?, ?, 1, 'closed', ?)",
            _rounds(args.channels, rounds_per_channel),
        )
        conn.execute("COMMIT")
        pools = {
            c: rng.sample(range(1, args.members + 1), args.pool)
            for c in range(1, args.channels + 1)
        }
        answers = _answers(rng, pools, rounds_per_channel, args)
        while chunk := [row for _, row in zip(range(100_000), answers, strict=False)]:
            conn.execute("BEGIN")
            conn.executemany(
                "INSERT INTO answers (round_id, channel_id, member_id, message_id, text,"
                " answered_at, before_reveal, scoring, base_points, votes, points)"
                " VALUES (?, ?, ?, ?, 'an answer', ?, ?, 1, ?, ?, ?)",
                chunk,
            )
            conn.execute("COMMIT")
        for _, sql in indexes:
            conn.execute(sql)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return time.perf_counter() - started


def _round_id(channel: int, number: int, rounds_per_channel: int) -> int:
    return (channel - 1) * rounds_per_channel + number


def _rounds(channels: int, rounds_per_channel: int) -> Iterator[tuple[int, int, int, str, str]]:
    for channel in range(1, channels + 1):
        for number in range(1, rounds_per_channel + 1):
            slot = to_db(START + timedelta(days=number - 1))
            yield _round_id(channel, number, rounds_per_channel), channel, number, slot, slot


def _answers(
    rng: random.Random,
    pools: dict[int, list[int]],
    rounds_per_channel: int,
    args: argparse.Namespace,
) -> Iterator[tuple[int, int, int, str, str, int, int, int, int]]:
    message = 0
    for number in range(1, rounds_per_channel + 1):
        day = START + timedelta(days=number - 1)
        for channel, pool in pools.items():
            round_id = _round_id(channel, number, rounds_per_channel)
            for member in rng.sample(pool, args.per_round):
                message += 1
                at = day + timedelta(seconds=rng.randrange(8 * 3600))
                before_reveal = int(rng.random() < 0.7)
                base = 10 + 5 * before_reveal
                votes = min(rng.randrange(4), 3)
                yield (
                    round_id,
                    channel,
                    member,
                    f"m{message}",
                    to_db(at),
                    before_reveal,
                    base,
                    votes,
                    base + 2 * votes,
                )


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def _measure(path: Path, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed + 1)
    async with SqliteStore.open(path) as store:
        with closing(sqlite3.connect(path)) as conn:
            now = from_db(conn.execute("SELECT MAX(answered_at) FROM answers").fetchone()[0])
            params = {"channel": 1, "since": "", "limit": 10}
            plan = conn.execute(f"EXPLAIN QUERY PLAN {LEADERBOARD}", params).fetchall()
            print("  query plan : " + " | ".join(str(row[3]) for row in plan))
            _compare_with_answers_only(conn, args, to_db(now - timedelta(days=7)))
        week = now - timedelta(days=7)
        for label, since in (("week", week), ("all-time", None)):
            for _ in range(20):  # warm the page cache, as a running bot has it
                await store.reports.leaderboard(rng.randrange(1, args.channels + 1), since)
            samples = []
            for _ in range(args.queries):
                channel = rng.randrange(1, args.channels + 1)
                started = time.perf_counter()
                rows = await store.reports.leaderboard(channel, since, 10)
                samples.append((time.perf_counter() - started) * 1000)
                if len(rows) != 10:
                    raise SystemExit(f"channel {channel}: {len(rows)} rows, expected 10")
            p50, p99 = statistics.median(samples), _percentile(samples, 0.99)
            verdict = "ok" if p99 <= TARGET_P99_MS else "MISSED"
            print(
                f"  {label:9s} top 10: median {p50:6.2f} ms   p99 {p99:6.2f} ms"
                f"   (target p99 <= {TARGET_P99_MS:.0f} ms: {verdict})"
            )


# The board before approved-suggestion bonuses counted: answers only. The baseline of the
# same run, to show what reading the (empty) bonuses table costs.
ANSWERS_ONLY = """
SELECT b.member_id, m.display_name, m.member, b.points, b.answers
FROM (
    SELECT member_id, SUM(points) AS points, SUM(scoring) AS answers, MIN(answered_at) AS first_at
    FROM answers WHERE channel_id = :channel AND answered_at >= :since
    GROUP BY member_id
    ORDER BY points DESC, answers DESC, first_at, member_id
    LIMIT :limit
) AS b
JOIN members m ON m.id = b.member_id
ORDER BY b.points DESC, b.answers DESC, b.first_at, b.member_id
"""


def _compare_with_answers_only(
    conn: sqlite3.Connection, args: argparse.Namespace, week: str
) -> None:
    rng = random.Random(args.seed + 2)
    channels = [rng.randrange(1, args.channels + 1) for _ in range(args.queries)]
    for label, since in (("week", week), ("all-time", "")):
        medians = []
        for sql in (ANSWERS_ONLY, LEADERBOARD):
            samples = []
            for channel in channels:
                started = time.perf_counter()
                conn.execute(sql, {"channel": channel, "since": since, "limit": 10}).fetchall()
                samples.append((time.perf_counter() - started) * 1000)
            medians.append(statistics.median(samples))
        print(
            f"  {label:9s} raw SQL median: answers only {medians[0]:6.2f} ms, with bonuses"
            f" {medians[1]:6.2f} ms (x{medians[1] / medians[0]:.2f})"
        )


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--answers", type=int, default=1_000_000)
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--pool", type=int, default=60, help="regulars per channel")
    parser.add_argument("--per-round", type=int, default=20, help="answers per round")
    parser.add_argument("--queries", type=int, default=300, help="timed queries per board")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="build (or reuse) this file instead of a temp")
    args = parser.parse_args()
    if not 0 < args.per_round <= args.pool <= args.members:
        parser.error("need 0 < --per-round <= --pool <= --members")
    return args


def main() -> None:
    args = _arguments()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp, "leaderboard.db")
        if not path.exists():
            asyncio.run(_create_schema(path))
            seconds = build(path, args)
            print(f"built {path} in {seconds:.1f} s")
        with closing(sqlite3.connect(path)) as conn:
            count = conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        size_mb = path.stat().st_size / 1e6
        print(
            f"leaderboard: {count:,} answers, {args.members:,} members, {args.channels} channels,"
            f" {size_mb:.0f} MB"
        )
        asyncio.run(_measure(path, args))


if __name__ == "__main__":
    main()
