"""Replicas on one PostgreSQL database: 600 channels due in the same minute, posted by one
replica and by three, and by three of which one is killed with SIGKILL mid-fan-out.

Each run uses a fresh schema on the server of ``--url`` (default: the test server), puts
``--channels`` Slack channels on the schedule of the next whole minute, starts the
replicas as separate ``quizbot run`` processes (Slack HTTP mode) against the fake Slack
served from this process, and waits for the slot. The fake Slack has no rate limits;
each API call answers after ``--latency-ms`` (a network round trip), so one replica is
bound by how many sends it has in flight, not by Slack. Outbox leases are
``--lease`` seconds, so the killed replica's claimed actions are taken over that late.

Prints per run: channels posted, duplicate posts (an outbox key posted twice), lost
channels (no question when all is quiet), and the time from the slot to the first and
the last question; then the throughput ratio of three replicas to one (target >= 1.5x
when the platform's limits allow) and whether the kill run has 0 duplicates and 0 lost.

    python bench/replicas.py [--channels 600] [--latency-ms 30] [--lease 10]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
from aiohttp import web

from storage.postgres_store import PostgresStore
from tests.slack.fake_slack import BOT_TOKEN, TEAM, FakeSlack
from tests.slack.signed import SIGNING_SECRET

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 1.5
START_MARGIN = 25.0  # seconds the replicas get to start before the slot


@dataclass
class TimedSlack(FakeSlack):
    """The fake Slack with a round-trip delay per call and the time of each post."""

    latency: float = 0.0
    posted_at: dict[str, list[float]] = field(default_factory=dict)  # key: wall times

    async def _api(self, request: web.Request) -> web.Response:
        await asyncio.sleep(self.latency)
        return await super()._api(request)

    def _chat_postMessage(self, params: Mapping[str, Any]) -> dict[str, Any]:
        answer = super()._chat_postMessage(params)
        key = self.messages[-1].key
        if key is not None:
            self.posted_at.setdefault(key, []).append(time.time())
        return answer

    def questions(self) -> dict[str, list[float]]:
        return {k: t for k, t in self.posted_at.items() if k.endswith(":question")}


@dataclass
class Outcome:
    replicas: int
    killed: bool
    channels: int
    posted: int
    duplicates: int
    lost: int
    first: float
    last: float

    def line(self) -> str:
        kill = ", one SIGKILLed" if self.killed else ""
        return (
            f"{self.replicas} replica(s){kill}: {self.posted}/{self.channels} channels posted,"
            f" {self.duplicates} duplicates, {self.lost} lost;"
            f" slot to first question {self.first:.2f} s, to last {self.last:.2f} s"
        )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def fresh_schema(url: str, channels: int, slot: datetime) -> tuple[str, str]:
    schema = f"quizbot_bench_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
    finally:
        await admin.close()
    schema_url = f"{url}{'&' if '?' in url else '?'}search_path={schema}"
    async with PostgresStore.open(schema_url) as store:
        pool = store._pooled()
        await pool.executemany(
            "INSERT INTO channels (platform, workspace, channel, timezone, schedule,"
            " reveal_emoji, reveal_min_reactors, followup_policy, grace_hours)"
            " VALUES ('slack', $1, $2, 'UTC', $3, 'bulb', 1, 'after_first_answer', 1)",
            [(TEAM, f"C{c:05d}", f"daily {slot:%H:%M}") for c in range(channels)],
        )
    return schema, schema_url


async def drop_schema(url: str, schema: str) -> None:
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await admin.close()


def start_replica(
    fake: TimedSlack, database_url: str, lease: float, workdir: str, number: int
) -> Any:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("QUIZBOT_")},
        "QUIZBOT_PLATFORM": "slack",
        "QUIZBOT_SLACK_MODE": "http",
        "QUIZBOT_SLACK_HTTP_PORT": str(free_port()),
        "QUIZBOT_SLACK_BOT_TOKEN": BOT_TOKEN,
        "QUIZBOT_SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "QUIZBOT_SLACK_API_URL": fake.api_url,
        "QUIZBOT_DATABASE_URL": database_url,
        "QUIZBOT_OUTBOX_LEASE_SECONDS": str(lease),
        "QUIZBOT_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from adapters.cli.main import main; raise SystemExit(main(['run']))",
        ],
        cwd=workdir,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(Path(workdir) / f"replica-{number}.log").open("wb"),
    )


def print_logs(workdir: str) -> None:
    """The replicas' last log lines (start-up notes about old slots left out)."""
    for log in sorted(Path(workdir).glob("replica-*.log")):
        lines = [line for line in log.read_text().splitlines() if "grace" not in line]
        print(f"{log.name}:", *lines[-15:], sep="\n  ")


async def one_run(
    url: str, channels: int, replicas: int, kill: bool, latency: float, lease: float
) -> Outcome:
    now = datetime.now(UTC)
    slot = (now + timedelta(seconds=START_MARGIN + 60)).replace(second=0, microsecond=0)
    schema, schema_url = await fresh_schema(url, channels, slot)
    # Message ts follow the wall clock, as Slack's do: find_sent looks back to the round.
    fake = TimedSlack(latency=latency, ts_base=time.time())
    await fake.start()
    processes: list[Any] = []
    try:
        with tempfile.TemporaryDirectory() as workdir:
            processes = [
                start_replica(fake, schema_url, lease, workdir, n) for n in range(replicas)
            ]
            deadline = slot.timestamp() + lease + 90
            killed = False
            while time.time() < deadline:
                await asyncio.sleep(0.05)
                posted = len(fake.questions())
                if kill and not killed and posted >= channels // 3:
                    processes[0].send_signal(signal.SIGKILL)  # mid-fan-out, sends in flight
                    killed = True
                if posted >= channels:
                    break
                for process in processes[1 if killed else 0 :]:
                    if process.poll() is not None:
                        raise RuntimeError(f"a replica exited; see {workdir}")
            await asyncio.sleep(min(lease, 3))  # late repeats would show up here
            if len(fake.questions()) < channels:
                print_logs(workdir)
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        await fake.stop()
        await drop_schema(url, schema)
    questions = fake.questions()
    posted_channels = {m.channel for m in fake.messages if (m.key or "").endswith(":question")}
    times = sorted(t[0] for t in questions.values())
    duplicates = sum(len(t) - 1 for t in fake.posted_at.values())
    base = slot.timestamp()
    return Outcome(
        replicas=replicas,
        killed=kill,
        channels=channels,
        posted=len(posted_channels),
        duplicates=duplicates,
        lost=channels - len(posted_channels),
        first=times[0] - base if times else float("nan"),
        last=times[-1] - base if times else float("nan"),
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--url",
        default=os.environ.get(
            "QUIZBOT_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
        ),
    )
    parser.add_argument("--channels", type=int, default=600)
    parser.add_argument("--latency-ms", type=float, default=30.0)
    parser.add_argument("--lease", type=float, default=10.0)
    args = parser.parse_args()
    latency = args.latency_ms / 1000
    print(
        f"{args.channels} channels due in the same minute; fake Slack without rate limits,"
        f" {args.latency_ms:.0f} ms a call; outbox lease {args.lease:.0f} s"
    )
    # Stopped with SIGTERM or Ctrl-C, the runs' clean-up still stops the replicas.
    main_task = asyncio.current_task()
    assert main_task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)
    runs = [(1, False), (3, False), (3, True)]
    outcomes = []
    for replicas, kill in runs:
        outcome = await one_run(args.url, args.channels, replicas, kill, latency, args.lease)
        print(outcome.line(), flush=True)
        outcomes.append(outcome)
    one, three, killed = outcomes
    ratio = one.last / three.last
    print(
        f"throughput, 3 replicas vs 1 (slot to last question): {ratio:.2f}x"
        f" (target >= {TARGET_RATIO}x): {'met' if ratio >= TARGET_RATIO else 'NOT met'}"
    )
    safe = killed.duplicates == 0 and killed.lost == 0
    print(
        f"SIGKILL mid-fan-out: {'0 duplicates, 0 lost' if safe else 'NOT safe'};"
        f" slot to last question {killed.last:.2f} s (includes the {args.lease:.0f} s lease)"
    )


if __name__ == "__main__":
    asyncio.run(main())
