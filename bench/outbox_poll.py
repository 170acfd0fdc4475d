"""The idle outbox poll at 500,000 rounds: ``due_actions`` with nothing due.

Builds ``--rounds`` rounds over ``--channels`` channels, every one with its five
outbox actions done, polls once and closes the store (its close-time ``PRAGMA
optimize`` writes the planner statistics a restarted bot has), then times
``SqliteStore.due_actions`` for the platforms of a running bot, with nothing
due. Prints the median and the worst of ``--polls`` polls.
Target: <= 1 ms.

    python bench/outbox_poll.py [--rounds 500000] [--channels 2000] [--polls 20] [--keep PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import tempfile
import time
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from storage.sqlite.store import SqliteStore
from storage.timestamps import to_db

START = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)
KINDS = ("question", "thread", "hint", "follow_ups", "outline")
TARGET_MS = 1.0


def build(path: Path, rounds: int, channels: int) -> None:
    async def migrate_and_optimize() -> None:
        async with SqliteStore.open(path):
            pass

    asyncio.run(migrate_and_optimize())
    per_channel = max(1, rounds // channels)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        conn.execute(
            "INSERT INTO questions (id, pack, question, topic, content_hash)"
            " VALUES (1, 'bench', 'q', 'gpu', 'h')"
        )
        conn.executemany(
            "INSERT INTO channels (id, platform, workspace, channel, timezone, schedule,"
            " reveal_emoji, reveal_min_reactors, followup_policy, grace_hours)"
            " VALUES (?, ?, 'w', ?, 'UTC', 'daily 09:00', 'x', 1, 'after_first_answer', 6)",
            ((c, ("slack", "discord")[c % 2], f"C{c}") for c in range(1, channels + 1)),
        )
        rows = (
            ((c - 1) * per_channel + n, c, n, to_db(START + timedelta(days=n - 1)))
            for c in range(1, channels + 1)
            for n in range(1, per_channel + 1)
        )
        conn.executemany(
            "INSERT INTO rounds (id, channel_id, question_id, number, scheduled_for, scheduled,"
            " state, created_at) VALUES (?, ?, 1, ?, ?, 1, 'closed', ?4)",
            rows,
        )
        conn.executemany(
            "INSERT INTO outbox (round_id, kind, key, state, attempts, next_attempt_at,"
            " created_at, updated_at) SELECT id, ?, 'round:' || id || ':' || ?, 'done', 1,"
            " scheduled_for, scheduled_for, scheduled_for FROM rounds",
            ((kind, kind) for kind in KINDS),
        )
        conn.execute("COMMIT")


async def measure(path: Path, polls: int) -> list[float]:
    # A bot that polled and stopped: close runs PRAGMA optimize, which analyzes what was queried.
    async with SqliteStore.open(path) as store:
        await store.outbox.due_actions(datetime.now(UTC), limit=1000, platforms={"slack"})
    samples = []
    async with SqliteStore.open(path) as store:
        now = datetime.now(UTC)
        for _ in range(polls + 2):
            started = time.perf_counter()
            due = await store.outbox.due_actions(now, limit=1000, platforms={"slack"})
            samples.append((time.perf_counter() - started) * 1000)
            assert not due
    return samples[2:]  # the first polls warm the page cache


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500_000)
    parser.add_argument("--channels", type=int, default=2_000)
    parser.add_argument("--polls", type=int, default=20)
    parser.add_argument("--keep", type=Path, help="build (or reuse) this file instead of a temp")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp, "outbox-poll.db")
        if not path.exists():
            started = time.perf_counter()
            build(path, args.rounds, args.channels)
            print(f"built {path} in {time.perf_counter() - started:.1f} s")
        with closing(sqlite3.connect(path)) as conn:
            rounds = conn.execute("SELECT COUNT(*) FROM rounds").fetchone()[0]
            actions = conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
        print(f"outbox poll: {rounds:,} rounds, {actions:,} outbox actions (all done)")
        samples = asyncio.run(measure(path, args.polls))
    median, worst = statistics.median(samples), max(samples)
    verdict = "ok" if worst <= TARGET_MS else "MISSED"
    print(
        f"idle due_actions: median {median:8.3f} ms   worst {worst:8.3f} ms"
        f"   (target <= {TARGET_MS:.0f} ms: {verdict})"
    )


if __name__ == "__main__":
    main()
