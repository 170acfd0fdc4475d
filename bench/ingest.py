"""Answer ingest: 50,000 answer events through the engine and the SQLite store.

Feeds answers from 2,000 members over 50 open rounds concurrently through
``QuizService.handle`` (dedupe, thread lookup, member lookup, insert and
scoring, group-committed), then, in the same run and on the same pragmas,
writes the same answer rows with plain awaited aiosqlite INSERTs committed
every 100 rows. Prints both rates and their ratio (target >= 0.5; 0.8 is
where we want to be).

With ``--full`` the engine run is repeated, in the same run, on a store opened
with ``synchronous=FULL`` (``QUIZBOT_SQLITE_SYNCHRONOUS=full``), and the cost of
FULL is printed as its rate against NORMAL's. ``--dir`` puts the databases on the
disk to measure (a tmpfs makes every sync free).

    python bench/ingest.py [--events 50000] [--members 2000] [--rounds 50] [--in-flight 2000]
                           [--full] [--dir PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite

from bot.kernel.config import QuizConfig
from bot.kernel.events import Command, Reply
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.kernel.render import Card
from bot.service import QuizService
from questions.loader import load_catalog
from storage.sqlite.store import SqliteStore

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


class FixedClock:
    def now(self) -> datetime:
        return NOW


@dataclass
class NullPlatform:
    """Accepts every send instantly, so only the core and the store are measured."""

    name: str = "bench"
    admin_rule: str = "nobody"
    _ids: itertools.count[int] = field(default_factory=itertools.count)

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        return MessageRef(channel, f"m{next(self._ids)}")

    async def open_thread(self, message: MessageRef, title: str, *, key: str) -> ThreadRef:
        return ThreadRef(message.channel, f"t{message.message_id}")

    async def reply(self, thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        return MessageRef(thread.channel, f"m{next(self._ids)}")

    async def react(self, message: MessageRef, emoji: str) -> None:
        return None

    async def tell(self, member: MemberRef, channel: ChannelRef, card: Card) -> None:
        return None

    async def find_sent(
        self, channel: ChannelRef, key: str, *, thread: ThreadRef | None = None
    ) -> MessageRef | None:
        return None

    async def is_admin(self, member: MemberRef, channel: ChannelRef) -> bool:
        return True

    async def link(self, message: MessageRef, thread: ThreadRef | None = None) -> str | None:
        return None


async def _open_rounds(service: QuizService, rounds: int) -> list[tuple[ChannelRef, str]]:
    threads = []
    admin = MemberRef("bench", "w", "admin", "admin")
    for number in range(rounds):
        channel = ChannelRef("bench", "w", f"C{number}", f"c{number}")
        await service.handle(Command(f"setup-{number}", channel, admin, "now"))
        await service.settle()
        settings = await service.engine.channel(channel)
        assert settings is not None
        round_ = await service.store.rounds.open_round(settings.id)
        assert round_ is not None and round_.thread is not None
        threads.append((channel, round_.thread))
    return threads


def _events(
    threads: list[tuple[ChannelRef, str]], members: int, count: int, seed: int
) -> list[Reply]:
    rng = random.Random(seed)
    replies = []
    for n in range(count):
        channel, thread = threads[n % len(threads)]
        member = f"U{rng.randrange(members)}"
        replies.append(
            Reply(
                f"ev{n}",
                channel,
                ThreadRef(channel, thread),
                MessageRef(channel, f"msg{n}"),
                MemberRef("bench", "w", member, member),
                f"answer {n}: " + "some thoughtful text " * 4,
            )
        )
    return replies


async def _through_engine(db: Path, args: argparse.Namespace, synchronous: str = "normal") -> float:
    async with SqliteStore.open(db, synchronous=synchronous) as store:
        service = QuizService(
            store=store,
            platforms={"bench": NullPlatform()},
            catalog=load_catalog(),
            clock=FixedClock(),
            config=QuizConfig(default_schedule=None),
            background=False,
        )
        await service.start()
        threads = await _open_rounds(service, args.rounds)
        events = _events(threads, args.members, args.events, args.seed)
        limit = asyncio.Semaphore(args.in_flight)

        async def feed(event: Reply) -> None:
            async with limit:
                await service.handle(event)

        started = time.perf_counter()
        await asyncio.gather(*(feed(e) for e in events))
        elapsed = time.perf_counter() - started
        await service.stop()
        print(f"  group commits: {store.answers.answer_batches}")
    return elapsed


async def _baseline(db: Path, source: Path) -> tuple[float, int]:
    """The same answer rows, copied out of the engine's run, inserted one awaited INSERT each."""
    async with aiosqlite.connect(source) as src:
        rows = list(
            await src.execute_fetchall(
                "SELECT round_id, channel_id, member_id, message_id, text, answered_at,"
                " before_reveal, scoring, base_points, votes, points FROM answers ORDER BY id"
            )
        )
    shutil.copy(source, db)  # the same schema and indexes
    async with aiosqlite.connect(db, isolation_level=None) as conn:
        await conn.execute("PRAGMA busy_timeout = 5000")
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("DELETE FROM answers")
        started = time.perf_counter()
        await conn.execute("BEGIN")
        for n, row in enumerate(rows, 1):
            await conn.execute(
                "INSERT INTO answers (round_id, channel_id, member_id, message_id, text,"
                " answered_at, before_reveal, scoring, base_points, votes, points)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                tuple(row),
            )
            if n % 100 == 0:
                await conn.execute("COMMIT")
                await conn.execute("BEGIN")
        await conn.execute("COMMIT")
        elapsed = time.perf_counter() - started
    return elapsed, len(rows)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--members", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--in-flight", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--full", action="store_true", help="also ingest with synchronous=FULL and compare"
    )
    parser.add_argument("--dir", type=Path, help="where to put the databases (default: a temp dir)")
    args = parser.parse_args()
    full_s: float | None = None
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        engine_db, baseline_db = Path(tmp, "engine.db"), Path(tmp, "baseline.db")
        print(
            f"ingest: {args.events:,} answer events, {args.members:,} members, "
            f"{args.rounds} open rounds, {args.in_flight} in flight"
        )
        engine_s = await _through_engine(engine_db, args)
        baseline_s, rows = await _baseline(baseline_db, engine_db)
        if args.full:
            print("  and again with synchronous=FULL:")
            full_s = await _through_engine(Path(tmp, "full.db"), args, synchronous="full")
    if rows != args.events:
        raise SystemExit(f"only {rows} of {args.events} answers were stored")
    engine_rate, baseline_rate = args.events / engine_s, rows / baseline_s
    print(f"  engine + store : {engine_rate:10,.0f} answers/s ({engine_s:.2f} s)")
    print(f"  plain INSERTs  : {baseline_rate:10,.0f} rows/s    ({baseline_s:.2f} s, commit/100)")
    print(f"  ratio          : {engine_rate / baseline_rate:.2f} (target >= 0.5, goal 0.8)")
    if full_s is not None:
        full_rate = args.events / full_s
        print(f"  engine, FULL   : {full_rate:10,.0f} answers/s ({full_s:.2f} s)")
        print(f"  FULL / NORMAL  : {full_rate / engine_rate:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
