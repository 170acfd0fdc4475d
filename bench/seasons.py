"""Season standings at a real team's size: 50 members, 20 channels, a year of history.

Builds a SQLite database of a year of daily rounds in ``--channels`` channels, each with a
pool of ``--pool`` of the ``--members`` members, ``--per-round`` answers a round, each
answerer's own grade and ``--reviews`` reviews a round (bulk ``executemany``), then times
``SeasonStandings.of`` (what `/quiz season` and the turn compute) for random channels and
months: the whole of it, and its database part alone (the three aggregates). The rest is
the memory model replaying the ranked members' grades.

    PYTHONPATH=. python bench/seasons.py [--members 50] [--channels 20] [--queries 100]
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
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from bot.kernel.models import ChannelSettings, SeasonLength
from bot.kernel.refs import ChannelRef
from bot.seasons.periods import season_of
from bot.seasons.standings import SeasonStandings
from storage.sqlite.store import SqliteStore
from storage.timestamps import to_db

START = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
DAYS = 365
QUESTIONS = 300


async def _create_schema(path: Path) -> None:
    async with SqliteStore.open(path):
        pass


def build(path: Path, args: argparse.Namespace) -> tuple[int, int, int]:
    rng = random.Random(args.seed)
    answers: list[tuple[object, ...]] = []
    grades: list[tuple[object, ...]] = []
    reviews: list[tuple[object, ...]] = []
    rounds: list[tuple[object, ...]] = []
    answer_id = 0
    pools = {
        c: rng.sample(range(1, args.members + 1), args.pool) for c in range(1, args.channels + 1)
    }
    for channel, pool in pools.items():
        for day in range(DAYS):
            round_id = (channel - 1) * DAYS + day + 1
            question = (channel * 7 + day) % QUESTIONS + 1
            slot = START + timedelta(days=day)
            rounds.append((round_id, channel, question, day + 1, to_db(slot), to_db(slot)))
            answerers = rng.sample(pool, args.per_round)
            ids = []
            for member in answerers:
                answer_id += 1
                ids.append((answer_id, member))
                at = slot + timedelta(minutes=rng.randrange(480))
                points = 10 + 5 * int(rng.random() < 0.7)
                answers.append(
                    (answer_id, round_id, channel, member, f"m{answer_id}", to_db(at), points)
                )
                grade = rng.choice((1, 2, 3, 3, 4))
                grades.append((member, question, round_id, channel, grade, to_db(at)))
            for _ in range(args.reviews):
                (answer, author), reviewer = rng.choice(ids), rng.choice(pool)
                if reviewer == author:
                    continue
                reviewed_at = slot + timedelta(hours=9, minutes=rng.randrange(600))
                score = rng.choice((1, 2, 3, 4))
                reviews.append((answer, round_id, channel, reviewer, score, to_db(reviewed_at)))
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA synchronous = OFF")  # a throw-away file
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO members (id, platform, workspace, member, display_name)"
            " VALUES (?, 'bench', 'w', ?, ?)",
            ((m, f"U{m}", f"member {m}") for m in range(1, args.members + 1)),
        )
        conn.executemany(
            "INSERT INTO questions (id, pack, question, topic, content_hash)"
            " VALUES (?, 'bench', ?, 'gpu', ?)",
            ((q, f"q{q}", f"h{q}") for q in range(1, QUESTIONS + 1)),
        )
        conn.executemany(
            "INSERT INTO channels (id, platform, workspace, channel, timezone, reveal_emoji,"
            " reveal_min_reactors, followup_policy, grace_hours)"
            " VALUES (?, 'bench', 'w', ?, 'UTC', 'x', 1, 'after_first_answer', 6)",
            ((c, f"C{c}") for c in range(1, args.channels + 1)),
        )
        conn.executemany(
            "INSERT INTO rounds (id, channel_id, question_id, number, scheduled_for, scheduled,"
            " state, created_at) VALUES (?, ?, ?, ?, ?, 1, 'closed', ?)",
            rounds,
        )
        conn.executemany(
            "INSERT INTO answers (id, round_id, channel_id, member_id, message_id, text,"
            " answered_at, before_reveal, scoring, base_points, votes, points)"
            " VALUES (?, ?, ?, ?, ?, 'an answer', ?, 1, 1, 10, 0, ?)",
            answers,
        )
        conn.executemany(
            "INSERT INTO grades (member_id, question_id, round_id, channel_id, rating,"
            " graded_at) VALUES (?, ?, ?, ?, ?, ?)",
            grades,
        )
        conn.executemany(
            "INSERT OR IGNORE INTO answer_reviews (answer_id, round_id, channel_id,"
            " reviewer_id, score, points, reviewed_at) VALUES (?, ?, ?, ?, ?, 2, ?)",
            reviews,
        )
        conn.execute("COMMIT")
    return len(answers), len(grades), len(reviews)


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _months(rng: random.Random, queries: int) -> Iterator[date]:
    for _ in range(queries):
        yield date(2026, rng.randrange(1, 13), 15)


async def _measure(path: Path, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed + 1)
    async with SqliteStore.open(path) as store:
        standings = SeasonStandings(store.seasons, store.away, store.skipped_days)
        now = START + timedelta(days=DAYS)
        whole: list[float] = []
        aggregates: list[float] = []
        ranked: list[int] = []
        for n, day in enumerate(_months(rng, args.queries + 10)):
            channel_id = rng.randrange(1, args.channels + 1)
            channel = ChannelSettings(
                channel_id, ChannelRef("bench", "w", f"C{channel_id}", f"#c{channel_id}"), "UTC"
            )
            season = season_of(day, SeasonLength.MONTHLY)
            start, end = season.bounds("UTC")
            began = time.perf_counter()
            result = await standings.of(channel, season, now)
            took = (time.perf_counter() - began) * 1000
            began = time.perf_counter()
            await store.seasons.points_between(channel_id, start, end)
            await store.seasons.helpful_reviews_between(channel_id, start, end)
            await store.seasons.reviewers_between(channel_id, start, end)
            sql = (time.perf_counter() - began) * 1000
            if n >= 10:  # the first ten warm the page cache, as a running bot has it
                whole.append(took)
                aggregates.append(sql)
                ranked.append(len(result.improved))
        for label, samples in (("standings, whole", whole), ("the 3 aggregates", aggregates)):
            print(
                f"  {label:17s}: median {statistics.median(samples):7.2f} ms"
                f"   p99 {_percentile(samples, 0.99):7.2f} ms"
            )
        print(f"  members ranked for most improved: median {statistics.median(ranked):.0f}")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--members", type=int, default=50)
    parser.add_argument("--channels", type=int, default=20)
    parser.add_argument("--pool", type=int, default=15, help="members of each channel")
    parser.add_argument("--per-round", type=int, default=8, help="answers a round")
    parser.add_argument("--reviews", type=int, default=4, help="reviews a round")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not 0 < args.per_round <= args.pool <= args.members:
        parser.error("need 0 < --per-round <= --pool <= --members")
    return args


def main() -> None:
    args = _arguments()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "seasons.db")
        asyncio.run(_create_schema(path))
        built = time.perf_counter()
        answers, grades, reviews = build(path, args)
        print(
            f"seasons: {args.members} members, {args.channels} channels, {DAYS} days:"
            f" {answers:,} answers, {grades:,} grades, {reviews:,} reviews"
            f" (built in {time.perf_counter() - built:.1f} s)"
        )
        asyncio.run(_measure(path, args))


if __name__ == "__main__":
    main()
