"""Start-up cost: time from launching the bot to ``/healthz`` ready, at 10 and 10,000 channels.

Builds two databases with the project's migrations (``--small`` and ``--large``
channels, each with a schedule and a timezone and a few past rounds, the latest at the
channel's last slot so that nothing is posted late), then launches a bot process on each
(``--repeats`` times, logging at INFO as ``quizbot run`` does) and prints the median time
to the first ``200`` from ``/healthz``, the peak RSS of that process, the lines it logged
until then, and the large-to-small differences and ratios. ``--mix own`` (the default)
gives each channel a time and a zone of its own, as teams pick them (five-minute steps
between 07:00 and 11:55 on three kinds of days, in about 400 IANA zones: nearly every
channel a (schedule, timezone) of its own); ``--mix shared`` draws them from 5 schedules
and 5 zones, as this bench did before. The two sizes are launched in turn (small, large,
small, ...), so a spell of load on a shared machine falls on both. What a start does
depends on the moment of the week (a Monday's pairings and a Friday's recaps are caught up
at start when their slot passed within the grace window): ``--at "wed 11:00"`` sets the
bot's clock, and the databases', to the next such moment (UTC, at least a day ahead, so
the scheduler, which waits by the wall clock, fires nothing while the bench measures).
``--adapter slack`` (or ``discord``) also loads that platform adapter's modules, as
``quizbot run`` on it does (5-8 MB more resident). Targets: at most +0.5 s and under
100 MB at 10,000 channels.

    python bench/startup.py [--small 10] [--large 10000] [--rounds 3] [--repeats 3]
                            [--mix own|shared] [--at "DAY HH:MM"] [--adapter slack|discord]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

SPECS = ("weekdays 09:00", "weekdays 09:30", "daily 10:00", "mon,wed,fri 09:00", "0 9 * * 1-5")
ZONES = ("UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "America/Los_Angeles")


def own_specs() -> tuple[str, ...]:
    """Times as teams pick them: every five minutes from 07:00 to 11:55, on three kinds of days."""
    days = ("weekdays", "daily", "mon,wed,fri")
    return tuple(
        f"{d} {h:02d}:{m:02d}" for d in days for h in range(7, 12) for m in range(0, 60, 5)
    )


def own_zones() -> tuple[str, ...]:
    """The tz database's regional zones (about 400), without the legacy aliases."""
    from zoneinfo import available_timezones

    legacy = ("Etc/", "SystemV/", "US/", "Canada/", "Brazil/", "Chile/", "Mexico/")
    return tuple(sorted(z for z in available_timezones() if "/" in z and not z.startswith(legacy)))


TARGET_EXTRA_SECONDS = 0.5
TARGET_RSS_MB = 100.0
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def moment(text: str, now: datetime) -> datetime:
    """The next "DAY HH:MM" (UTC) at least a day after ``now``."""
    day, at = text.lower().split()
    hour, minute = (int(part) for part in at.split(":"))
    start = (now + timedelta(days=1)).replace(hour=hour, minute=minute, second=0, microsecond=0)
    ahead = (WEEKDAYS.index(day[:3]) - start.weekday()) % 7
    if ahead == 0 and start < now + timedelta(days=1):
        ahead = 7
    return start + timedelta(days=ahead)


class ShiftedClock:
    """The wall clock moved by a fixed offset: the bot's time is the bench's moment."""

    def __init__(self, offset: timedelta) -> None:
        self._offset = offset

    def now(self) -> datetime:
        return datetime.now(UTC) + self._offset


def build(
    path: Path,
    channels: int,
    rounds: int,
    seed: int,
    mix: str = "own",
    now: datetime | None = None,
) -> None:
    """A database of ``channels`` scheduled Slack channels, migrated by the store itself."""
    from bot.scheduling.schedule_spec import parse_schedule, parse_timezone
    from bot.scheduling.slot_arithmetic import previous_slot
    from storage.sqlite.store import SqliteStore
    from storage.timestamps import to_db

    async def migrate() -> None:
        async with SqliteStore.open(path):
            pass

    asyncio.run(migrate())
    rng = random.Random(seed)
    specs, zones = (own_specs(), own_zones()) if mix == "own" else (SPECS, ZONES)
    now = now or datetime.now(UTC)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        conn.execute(
            "INSERT INTO questions (id, pack, question, topic, content_hash)"
            " VALUES (1, 'bench', 'q', 'gpu', 'h')"
        )
        round_id = 0
        for channel in range(1, channels + 1):
            spec_text, zone = rng.choice(specs), rng.choice(zones)
            conn.execute(
                "INSERT INTO channels (id, platform, workspace, channel, timezone, schedule,"
                " reveal_emoji, reveal_min_reactors, followup_policy, grace_hours)"
                " VALUES (?, 'slack', 'T1', ?, ?, ?, '💡', 1, 'after_first_answer', 6)",
                (channel, f"C{channel:06d}", zone, spec_text),
            )
            last = previous_slot(parse_schedule(spec_text), parse_timezone(zone), now)
            assert last is not None
            for number in range(1, rounds + 1):
                round_id += 1
                slot = to_db(last - timedelta(days=rounds - number))
                conn.execute(
                    "INSERT INTO rounds (id, channel_id, question_id, number, scheduled_for,"
                    " scheduled, state, created_at, question_message, thread)"
                    " VALUES (?, ?, 1, ?, ?, 1, ?, ?, ?, ?)",
                    (
                        round_id,
                        channel,
                        number,
                        slot,
                        "open" if number == rounds else "closed",
                        slot,
                        f"m{round_id}",
                        f"t{round_id}",
                    ),
                )
        conn.execute("COMMIT")


async def serve(
    db: Path, port: int, at: datetime | None = None, adapter: str | None = None
) -> None:
    """The bot as ``quizbot run`` wires it, with a platform that answers at once, logging at
    INFO to stderr as ``quizbot run`` does by default; its clock at ``at`` (None: now);
    with the modules of a platform's ``adapter`` loaded, as running on it loads them."""
    if adapter is not None:
        importlib.import_module(f"adapters.{adapter}.connector")
    from bench_platform import BenchPlatform

    from adapters.ops import heap
    from adapters.ops.health import start_health_server
    from adapters.ops.heap import freeze_start_up_heap
    from adapters.ops.logs import configure_logging
    from adapters.ops.metrics import PrometheusMetrics
    from bot.kernel.clock import SystemClock
    from bot.kernel.config import QuizConfig
    from bot.service import QuizService
    from bot.settings import Settings
    from questions.loader import load_catalog
    from storage.sqlite.store import SqliteStore

    configure_logging(Settings(), level="INFO")
    catalog = load_catalog()
    async with SqliteStore.open(db) as store:
        metrics = PrometheusMetrics(store.outbox)
        service = QuizService(
            store=store,
            platforms={"slack": BenchPlatform("slack")},
            catalog=catalog,
            clock=SystemClock() if at is None else ShiftedClock(at - datetime.now(UTC)),
            config=QuizConfig(),
            background=True,
            metrics=metrics,
        )
        freeze_start_up_heap()  # as quizbot run does, before the start and once up
        # a checkout from before the collector was paused for the start has no pause
        with getattr(heap, "collections_paused", contextlib.nullcontext)():
            await service.start()
        stopping = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopping.set)
        health = await start_health_server(port, store.meta, [], metrics, host="127.0.0.1")
        freeze_start_up_heap()
        try:
            await stopping.wait()
        finally:
            await service.stop()
            await health.close()


def _python_path() -> list[str]:
    """The bench's folder (``bench_platform``), then whatever PYTHONPATH already holds
    (a checkout to measure instead of the installed one)."""
    inherited = os.environ.get("PYTHONPATH", "")
    return [str(Path(__file__).parent), *(p for p in inherited.split(os.pathsep) if p)]


def _free_port() -> int:
    with closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def launch_once(
    db: Path, at: datetime | None = None, adapter: str | None = None, timeout: float = 120.0
) -> tuple[float, float, float, int]:
    """Seconds from launch to ``/healthz`` answering 200, the process's peak RSS (MB), the
    CPU seconds it had used by then (steadier than the wall time on a busy machine), and
    the lines it had logged."""
    port = _free_port()
    clock = [] if at is None else ["--clock", at.isoformat()]
    clock += [] if adapter is None else ["--adapter", adapter]
    url = f"http://127.0.0.1:{port}/healthz"
    log = db.with_suffix(".log")
    started = time.perf_counter()
    with log.open("wb") as stderr:
        child = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(db), "--port", str(port), *clock],
            env={**os.environ, "PYTHONPATH": os.pathsep.join(_python_path())},
            stderr=stderr,
        )
    try:
        while True:
            if child.poll() is not None:
                print(log.read_text(errors="replace")[-3000:], file=sys.stderr)
                raise SystemExit(f"the bot exited with {child.returncode} before it was ready")
            try:
                with urllib.request.urlopen(url, timeout=1) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.perf_counter() - started > timeout:
                raise SystemExit(f"/healthz not ready after {timeout:.0f} s")
            time.sleep(0.01)
        ready = time.perf_counter() - started
        rss = _peak_rss_mb(child.pid)
        cpu = _cpu_seconds(child.pid)
        lines = len(log.read_bytes().splitlines())
    finally:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    return ready, rss, cpu, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--small", type=int, default=10)
    parser.add_argument("--large", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3, help="past rounds per channel")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--mix",
        choices=("own", "shared"),
        default="own",
        help="own: a schedule and zone of its own per channel; shared: 5 schedules, 5 zones",
    )
    parser.add_argument(
        "--at",
        help='the moment of the week to start at, "DAY HH:MM" in UTC (e.g. "mon 11:00")',
    )
    parser.add_argument(
        "--adapter",
        choices=("slack", "discord"),
        help="also load that platform adapter's modules, as quizbot run on it does",
    )
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--clock", type=datetime.fromisoformat, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        asyncio.run(serve(args.serve, args.port, args.clock, args.adapter))
        return
    at = None if args.at is None else moment(args.at, datetime.now(UTC))
    when = "now" if at is None else at.strftime("%a %Y-%m-%d %H:%M UTC")
    print(f"schedules: {args.mix}; clock: {when}; adapter modules: {args.adapter or 'none'}")
    sizes = (args.small, args.large)
    runs: dict[int, list[tuple[float, float, float, int]]] = {n: [] for n in sizes}
    with tempfile.TemporaryDirectory() as tmp:
        dbs = {}
        for channels in sizes:
            dbs[channels] = Path(tmp, f"startup-{channels}.db")
            built = time.perf_counter()
            build(dbs[channels], channels, args.rounds, args.seed, args.mix, at)
            print(f"built {channels:,} channels in {time.perf_counter() - built:.1f} s")
        for _ in range(args.repeats):
            for channels in sizes:  # in turn: a spell of load falls on both sizes
                runs[channels].append(launch_once(dbs[channels], at, args.adapter))
    results: dict[int, tuple[float, float, float]] = {}
    for channels in sizes:
        done = runs[channels]
        ready = statistics.median(r[0] for r in done)
        rss = max(r[1] for r in done)
        cpu = statistics.median(r[2] for r in done)
        lines = max(r[3] for r in done)
        results[channels] = (ready, rss, cpu)
        print(
            f"  {channels:>6,} channels: /healthz ready in {ready:5.2f} s (median of"
            f" {args.repeats}: {', '.join(f'{r[0]:.2f}' for r in done)}),"
            f" CPU {cpu:5.2f} s, peak RSS {rss:5.1f} MB, {lines:,} log lines"
        )
    differences = [large[0] - small[0] for small, large in zip(*runs.values(), strict=True)]
    (small_s, small_mb, small_cpu) = results[args.small]
    (large_s, large_mb, large_cpu) = results[args.large]
    extra = statistics.median(differences)
    print(
        f"start-up: {extra:+.2f} s at {args.large:,} vs {args.small:,} channels (median of the"
        f" launches' differences: {', '.join(f'{d:+.2f}' for d in differences)};"
        f" ratio {large_s / small_s:.2f}; target <= +{TARGET_EXTRA_SECONDS:.1f} s:"
        f" {'ok' if extra <= TARGET_EXTRA_SECONDS else 'MISSED'})"
    )
    print(
        f"start-up CPU: {large_cpu - small_cpu:+.2f} s at {args.large:,} vs {args.small:,}"
        f" channels (ratio {large_cpu / small_cpu:.2f})"
    )
    print(
        f"peak RSS: {large_mb:.1f} MB vs {small_mb:.1f} MB (ratio {large_mb / small_mb:.2f};"
        f" target < {TARGET_RSS_MB:.0f} MB: {'ok' if large_mb < TARGET_RSS_MB else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
