"""The pages of ``/quiz dashboard`` at a real team's size: how long each takes to draw.

Builds a SQLite database with MEMBERS members in CHANNELS channels and a year of weekday
rounds in each (every member answers about 60 % of them, grades most of their answers,
reviews some teammates'), with every member's FSRS cards as the store keeps them. Then
serves it with the bot's own web server and fetches, over HTTP from the same process,
``/healthz`` (the baseline: the same server, one cheap query), the lead's page of one
channel and one member's page, REQUESTS times each, interleaved. Prints the median and
p99 of each and their ratio to the baseline; the targets are 300 ms (lead) and 150 ms
(member) at p99.

    PYTHONPATH=. python bench/dashboard.py [--members 50] [--channels 20] [--requests 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import tempfile
import time
from collections import defaultdict
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp

from adapters.ops.health import start_health_server
from adapters.ops.metrics import PrometheusMetrics
from bot.kernel.config import QuizConfig
from bot.kernel.dashboard_views import DashboardPage
from bot.kernel.events import Command
from bot.kernel.grades import Grade
from bot.kernel.refs import ChannelRef, MemberRef
from bot.learning import memory_model
from bot.service import QuizService
from questions.loader import load_catalog
from storage.sqlite.store import SqliteStore
from storage.timestamps import to_db
from tests.fakes import FakeClock, FakePlatform

NOW = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)
START = NOW - timedelta(days=365)
TARGETS_MS = {"lead": 300.0, "member": 150.0}
GRADE_WEIGHTS = (1, 2, 4, 2)  # missed, partly, good, nailed


def config(url: str | None = None) -> QuizConfig:
    return QuizConfig(
        default_schedule="weekdays 09:00", dashboard_url=url, dashboard_secret="bench-" * 4
    )


async def create_channels(path: Path, channels: int, members: int) -> None:
    """Channels and members through the bot itself, so every row is as the bot writes it."""
    async with SqliteStore.open(path) as store:
        platform = FakePlatform()
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=load_catalog(),
            clock=FakeClock(START),
            config=config(),
            background=False,
        )
        await service.start()
        for n in range(channels):
            ref = ChannelRef(platform.name, "team", f"C{n}", f"channel-{n}")
            admin = MemberRef(platform.name, "team", "admin", "Admin")
            await service.handle(Command(f"now-{n}", ref, admin, "now", ()))
        for m in range(members):
            await store.members.member_id(MemberRef(platform.name, "team", f"U{m}", f"Member {m}"))
        await service.settle()
        await service.stop()


def add_history(path: Path, rng: random.Random) -> int:
    """A year of weekday rounds per channel with answers, grades, reviews; the rows added."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        channels = [row[0] for row in conn.execute("SELECT id FROM channels")]
        members = [row[0] for row in conn.execute("SELECT id FROM members WHERE member LIKE 'U%'")]
        questions = [row[0] for row in conn.execute("SELECT id FROM questions")]
        conn.execute("UPDATE rounds SET state = 'closed', closed_at = ?", (to_db(START),))
        rows = 0
        logs: dict[int, list[tuple[int, Grade, datetime]]] = defaultdict(list)
        for channel in channels:
            number = 1
            for day in range(365):
                at = START + timedelta(days=day, hours=1)
                if at.weekday() >= 5:
                    continue
                number += 1
                question = questions[(number + channel) % len(questions)]
                cursor = conn.execute(
                    "INSERT INTO rounds (channel_id, question_id, number, scheduled_for,"
                    " scheduled, state, created_at, revealed_at, closed_at)"
                    " VALUES (?, ?, ?, ?, 1, 'closed', ?, ?, ?)",
                    (channel, question, number, to_db(at), to_db(at), to_db(at), to_db(at)),
                )
                round_id = cursor.lastrowid
                answered = [m for m in members if rng.random() < 0.6]
                answer_ids = []
                for member in answered:
                    when = at + timedelta(minutes=rng.uniform(1, 300))
                    cursor = conn.execute(
                        "INSERT INTO answers (round_id, channel_id, member_id, message_id, text,"
                        " answered_at, before_reveal, scoring, base_points, points)"
                        " VALUES (?, ?, ?, ?, 'an answer', ?, 1, 1, 10, 10)",
                        (round_id, channel, member, f"m{round_id}-{member}", to_db(when)),
                    )
                    answer_ids.append((cursor.lastrowid, member))
                    if rng.random() < 0.8:
                        grade = rng.choices(list(Grade), GRADE_WEIGHTS)[0]
                        conn.execute(
                            "INSERT INTO grades (member_id, question_id, round_id, channel_id,"
                            " rating, graded_at) VALUES (?, ?, ?, ?, ?, ?)",
                            (member, question, round_id, channel, int(grade), to_db(when)),
                        )
                        logs[member].append((question, grade, when))
                        rows += 1
                    rows += 1
                for answer_id, author in rng.sample(answer_ids, min(3, len(answer_ids))):
                    reviewer = rng.choice([m for m in members if m != author])
                    conn.execute(
                        "INSERT INTO answer_reviews (answer_id, round_id, channel_id, reviewer_id,"
                        " score, covered, points, reviewed_at) VALUES (?, ?, ?, ?, ?, '[1]', 1, ?)",
                        (answer_id, round_id, channel, reviewer, rng.randint(1, 4), to_db(at)),
                    )
                    rows += 1
        for member, log in logs.items():
            by_question: dict[int, list[memory_model.LoggedGrade]] = defaultdict(list)
            for question, grade, when in sorted(log, key=lambda item: item[2]):
                by_question[question].append(memory_model.LoggedGrade(grade, when))
            for question, graded in by_question.items():
                card = memory_model.member_card(question, graded)
                assert card is not None
                conn.execute(
                    "INSERT OR REPLACE INTO member_cards (member_id, question_id, stability,"
                    " difficulty, due, last_review, reviews) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        member,
                        question,
                        card.stability,
                        card.difficulty,
                        to_db(card.due),
                        to_db(card.last_review),
                        card.reviews,
                    ),
                )
        shares = rng.sample(members, len(members) // 5)
        conn.executemany(
            "INSERT INTO dashboard_shares (channel_id, member_id, shared_at) VALUES (?, ?, ?)",
            ((channels[0], m, to_db(NOW)) for m in shares),
        )
        conn.execute("COMMIT")
        return rows


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def measure(path: Path, requests: int) -> None:
    port_probe = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = port_probe.sockets[0].getsockname()[1]
    port_probe.close()
    await port_probe.wait_closed()
    origin = f"http://127.0.0.1:{port}"
    async with SqliteStore.open(path) as store:
        platform = FakePlatform()
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=load_catalog(),
            clock=FakeClock(NOW),
            config=config(origin),
            background=False,
        )
        await service.start()
        server = await start_health_server(
            port, store.meta, [], PrometheusMetrics(store.outbox), dashboard=service.core.dashboard
        )
        try:
            channel = await service.engine.channel(ChannelRef(platform.name, "team", "C0"))
            assert channel is not None
            pages = service.core.dashboard
            admin = MemberRef(platform.name, "team", "admin")
            member = MemberRef(platform.name, "team", "U1")
            urls = {
                "healthz": f"{origin}/healthz",
                "lead": await pages.link(DashboardPage.LEAD, channel, admin),
                "member": await pages.link(DashboardPage.MEMBER, channel, member),
            }
            times: dict[str, list[float]] = {name: [] for name in urls}
            cpu: dict[str, list[float]] = {name: [] for name in urls}
            sizes: dict[str, int] = {}
            async with aiohttp.ClientSession() as http:
                for _ in range(3):  # warm: the first draw reads what later ones find cached
                    for url in urls.values():
                        async with http.get(url) as response:
                            await response.read()
                for _ in range(requests):
                    for name, url in urls.items():
                        started, used = time.perf_counter(), time.process_time()
                        async with http.get(url) as response:
                            body = await response.read()
                            assert response.status == 200, (name, response.status)
                        times[name].append((time.perf_counter() - started) * 1000)
                        cpu[name].append((time.process_time() - used) * 1000)
                        sizes[name] = len(body)
        finally:
            await server.close()
            await service.stop()
    base = statistics.median(times["healthz"])
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs; wall time per request, and the")
    print("CPU time this process spent on it (client and server, every thread)")
    print(
        f"{'request':<9} {'median ms':>10} {'p99 ms':>8} {'x healthz':>10} {'cpu median':>11}"
        f" {'cpu p99':>8} {'target':>7} {'bytes':>6}"
    )
    for name, values in times.items():
        median, p99 = statistics.median(values), percentile(values, 0.99)
        target = TARGETS_MS.get(name)
        verdict = "" if target is None else ("ok" if p99 <= target else "MISSED")
        print(
            f"{name:<9} {median:>10.1f} {p99:>8.1f} {median / base:>10.1f}"
            f" {statistics.median(cpu[name]):>11.1f} {percentile(cpu[name], 0.99):>8.1f}"
            f" {(f'{target:.0f}' if target else '-'):>7} {sizes[name]:>6} {verdict}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=50)
    parser.add_argument("--channels", type=int, default=20)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "quiz.db"
        started = time.perf_counter()
        asyncio.run(create_channels(path, args.channels, args.members))
        rows = add_history(path, random.Random(7))
        print(
            f"{args.members} members, {args.channels} channels, a year of weekday rounds:"
            f" {rows:,} answers, grades and reviews built in {time.perf_counter() - started:.0f} s"
        )
        asyncio.run(measure(path, args.requests))


if __name__ == "__main__":
    main()
