"""Replicas on one PostgreSQL database: 600 channels due in the same minute, posted by one
replica and by three, and by three of which one is killed with SIGKILL mid-fan-out.

Each run uses a fresh schema on the server of ``--url`` (default: the test server), puts
``--channels`` Slack channels on the schedule of the next whole minute, starts the
replicas as separate ``quizbot run`` processes (Slack HTTP mode) against the fake Slack
served from this process, and waits for the slot. The fake Slack has no rate limits;
each API call answers after ``--latency-ms`` (a network round trip). Outbox leases are
``--lease`` seconds, so the killed replica's claimed actions are taken over that late.

The channels are in one workspace (the bot token), or spread over ``--workspaces``
workspaces that installed the app. Each workspace's posts are paced at Slack's
workspace-wide limit (9 a second), which the replicas split (``QUIZBOT_SLACK_REPLICAS``):
within one workspace three replicas post no faster than one, by design. A fourth run
has each replica pace as if alone (the code before they split it), which only this
limitless fake lets go faster; its peak posts a second in one workspace shows by how
much it would exceed Slack's limit.

Prints per run: channels posted, duplicate posts (an outbox key posted twice), lost
channels (no question when all is quiet), the time from the slot to the first and the
last question, the peak posts a second in one workspace, and the CPU seconds each
replica, the fake Slack and the PostgreSQL server spent from the slot on; then the
throughput ratio of three replicas to one (target >= 1.5x where the platform's limits
allow) and whether the kill run has 0 duplicates and 0 lost.

    python bench/replicas.py [--channels 600] [--workspaces 1] [--latency-ms 30] [--lease 10]
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
from cryptography.fernet import Fernet

from adapters.slack.installations import TokenSeal
from adapters.slack.workspace_pacing import DEFAULT_POSTS_PER_SECOND
from bot.kernel.installations import InstallationRecord
from storage.postgres.store import PostgresStore
from tests.slack.fake_slack import BOT_ID, BOT_TOKEN, BOT_USER, TEAM, FakeSlack
from tests.slack.signed import SIGNING_SECRET

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 1.5
START_MARGIN = 25.0  # seconds the replicas get to start before the slot


@dataclass
class TimedSlack(FakeSlack):
    """The fake Slack with a round-trip delay per call and the time of each post."""

    latency: float = 0.0
    posted_at: dict[str, list[float]] = field(default_factory=dict)  # key: wall times
    team_posts: dict[str, list[float]] = field(default_factory=dict)  # team: wall times

    async def _api(self, request: web.Request) -> web.Response:
        await asyncio.sleep(self.latency)
        return await super()._api(request)

    def _chat_postMessage(self, params: Mapping[str, Any]) -> dict[str, Any]:
        answer = super()._chat_postMessage(params)
        key = self.messages[-1].key
        if key is not None:
            self.posted_at.setdefault(key, []).append(time.time())
        self.team_posts.setdefault(self._caller, []).append(time.time())
        return answer

    def peak_rate(self) -> int:
        """The most posts one workspace got within one second."""
        peak = 0
        for times in self.team_posts.values():
            times = sorted(times)
            start = 0
            for end, at in enumerate(times):
                while at - times[start] >= 1.0:
                    start += 1
                peak = max(peak, end - start + 1)
        return peak

    def questions(self) -> dict[str, list[float]]:
        return {k: t for k, t in self.posted_at.items() if k.endswith(":question")}


@dataclass
class Outcome:
    replicas: int
    killed: bool
    shared: bool  # the replicas split each workspace's post rate (QUIZBOT_SLACK_REPLICAS)
    channels: int
    posted: int
    duplicates: int
    lost: int
    first: float
    last: float
    replica_cpu: list[float]  # CPU seconds of each replica from the slot to the end
    fake_cpu: float  # CPU seconds of this process (the fake Slack) over the same time
    postgres_cpu: float  # CPU seconds of every PostgreSQL process (a shared server)
    peak: int  # the most posts one workspace got within one second

    def label(self) -> str:
        kill = ", one SIGKILLed" if self.killed else ""
        alone = ", each pacing as if alone" if not self.shared else ""
        return f"{self.replicas} replica(s){kill}{alone}"

    def line(self) -> str:
        return (
            f"{self.label()}: {self.posted}/{self.channels} channels posted,"
            f" {self.duplicates} duplicates, {self.lost} lost;"
            f" slot to first question {self.first:.2f} s, to last {self.last:.2f} s;"
            f" peak {self.peak} posts a second in one workspace"
        )

    def cpu_line(self) -> str:
        replicas = sum(self.replica_cpu)
        per_post = 1000 * replicas / max(self.posted, 1)
        each = " + ".join(f"{c:.1f}" for c in self.replica_cpu)
        return (
            f"  CPU from the slot: replicas {each} = {replicas:.1f} s ({per_post:.1f} ms a post),"
            f" fake Slack {self.fake_cpu:.1f} s,"
            f" PostgreSQL (whole server) {self.postgres_cpu:.1f} s;"
            f" load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a live process (Linux /proc); 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds() -> float:
    """CPU seconds of every process named postgres on this machine (the server is shared)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        if "(postgres)" in text:
            total += cpu_seconds(int(stat.parent.name))
    return total


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Workspaces:
    """Where the channels are: one workspace on the bot token, or ``count`` workspaces
    that installed the app (OAuth installs, each with its own bot token and pacing)."""

    count: int
    key: str = field(default_factory=lambda: Fernet.generate_key().decode())

    def team(self, channel: int) -> str:
        return TEAM if self.count == 1 else f"T{channel % self.count:05d}"

    def tokens(self) -> dict[str, str]:
        """Bot token: team, for the fake Slack (empty with one workspace)."""
        if self.count == 1:
            return {}
        return {f"xoxb-bench-{t}": self.team(t) for t in range(self.count)}

    def env(self) -> dict[str, str]:
        if self.count == 1:
            return {"QUIZBOT_SLACK_BOT_TOKEN": BOT_TOKEN}
        return {
            "QUIZBOT_SLACK_CLIENT_ID": "bench.client",
            "QUIZBOT_SLACK_CLIENT_SECRET": "bench-secret",
            "QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY": self.key,
        }

    def installations(self, now: datetime) -> list[InstallationRecord]:
        seal = TokenSeal(self.key)
        return [
            InstallationRecord(
                workspace=team,
                team_name=team,
                bot_user_id=BOT_USER,
                sealed_token=seal.seal(token),
                installed_at=now,
                bot_id=BOT_ID,
            )
            for token, team in self.tokens().items()
        ]


async def fresh_schema(
    url: str, channels: int, slot: datetime, workspaces: Workspaces
) -> tuple[str, str]:
    schema = f"quizbot_bench_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
    finally:
        await admin.close()
    schema_url = f"{url}{'&' if '?' in url else '?'}search_path={schema}"
    async with PostgresStore.open(schema_url) as store:
        pool = store.database.pooled()
        await pool.executemany(
            "INSERT INTO channels (platform, workspace, channel, timezone, schedule,"
            " reveal_emoji, reveal_min_reactors, followup_policy, grace_hours)"
            " VALUES ('slack', $1, $2, 'UTC', $3, 'bulb', 1, 'after_first_answer', 1)",
            [(workspaces.team(c), f"C{c:05d}", f"daily {slot:%H:%M}") for c in range(channels)],
        )
        for record in workspaces.installations(datetime.now(UTC)):
            await store.installations.save_installation(record)
    return schema, schema_url


async def drop_schema(url: str, schema: str) -> None:
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await admin.close()


def start_replica(
    fake: TimedSlack,
    database_url: str,
    lease: float,
    workdir: str,
    number: int,
    workspaces: Workspaces,
    share: int,
) -> Any:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("QUIZBOT_")},
        "QUIZBOT_PLATFORM": "slack",
        "QUIZBOT_SLACK_MODE": "http",
        "QUIZBOT_SLACK_HTTP_PORT": str(free_port()),
        **workspaces.env(),
        "QUIZBOT_SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "QUIZBOT_SLACK_API_URL": fake.api_url,
        "QUIZBOT_DATABASE_URL": database_url,
        "QUIZBOT_OUTBOX_LEASE_SECONDS": str(lease),
        "QUIZBOT_SLACK_REPLICAS": str(share),
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
    url: str,
    channels: int,
    replicas: int,
    kill: bool,
    latency: float,
    lease: float,
    workspaces: Workspaces,
    shared: bool,
) -> Outcome:
    now = datetime.now(UTC)
    slot = (now + timedelta(seconds=START_MARGIN + 60)).replace(second=0, microsecond=0)
    schema, schema_url = await fresh_schema(url, channels, slot, workspaces)
    # Message ts follow the wall clock, as Slack's do: find_sent looks back to the round.
    fake = TimedSlack(latency=latency, ts_base=time.time())
    fake.workspace_tokens.update(workspaces.tokens())
    await fake.start()
    processes: list[Any] = []
    try:
        with tempfile.TemporaryDirectory() as workdir:
            processes = [
                start_replica(
                    fake, schema_url, lease, workdir, n, workspaces, replicas if shared else 1
                )
                for n in range(replicas)
            ]
            deadline = slot.timestamp() + lease + 90
            killed = False
            cpu_at_slot: list[float] | None = None
            cpu_at_end = [0.0] * replicas
            while time.time() < deadline:
                await asyncio.sleep(0.05)
                if cpu_at_slot is None and time.time() >= slot.timestamp():
                    cpu_at_slot = [cpu_seconds(p.pid) for p in processes]
                    fake_at_slot, postgres_at_slot = time.process_time(), postgres_cpu_seconds()
                posted = len(fake.questions())
                if kill and not killed and posted >= channels // 3:
                    cpu_at_end[0] = cpu_seconds(processes[0].pid)
                    processes[0].send_signal(signal.SIGKILL)  # mid-fan-out, sends in flight
                    killed = True
                if posted >= channels:
                    break
                for process in processes[1 if killed else 0 :]:
                    if process.poll() is not None:
                        print_logs(workdir)
                        raise RuntimeError("a replica exited")
            for number, process in enumerate(processes[1 if killed else 0 :], 1 if killed else 0):
                cpu_at_end[number] = cpu_seconds(process.pid)
            fake_cpu = time.process_time() - fake_at_slot if cpu_at_slot else 0.0
            postgres_cpu = postgres_cpu_seconds() - postgres_at_slot if cpu_at_slot else 0.0
            replica_cpu = [
                end - start
                for end, start in zip(cpu_at_end, cpu_at_slot or cpu_at_end, strict=True)
            ]
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
        shared=shared,
        channels=channels,
        posted=len(posted_channels),
        duplicates=duplicates,
        lost=channels - len(posted_channels),
        first=times[0] - base if times else float("nan"),
        last=times[-1] - base if times else float("nan"),
        replica_cpu=replica_cpu,
        fake_cpu=fake_cpu,
        postgres_cpu=postgres_cpu,
        peak=fake.peak_rate(),
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
    parser.add_argument(
        "--workspaces",
        type=int,
        default=1,
        help="spread the channels over this many Slack workspaces (more than 1: OAuth"
        " installs, each workspace paced on its own)",
    )
    args = parser.parse_args()
    if args.workspaces < 1:
        parser.error("--workspaces must be at least 1")
    latency = args.latency_ms / 1000
    workspaces = Workspaces(args.workspaces)
    print(
        f"{args.channels} channels in {args.workspaces} workspace(s) due in the same minute;"
        f" fake Slack without rate limits, {args.latency_ms:.0f} ms a call;"
        f" outbox lease {args.lease:.0f} s"
    )
    # Stopped with SIGTERM or Ctrl-C, the runs' clean-up still stops the replicas.
    main_task = asyncio.current_task()
    assert main_task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)
    # The last run is the code before replicas split a workspace's rate: each paces as if
    # alone, which only this fake (no limits) lets go faster.
    runs = [(1, False, True), (3, False, True), (3, True, True), (3, False, False)]
    outcomes = []
    for replicas, kill, shared in runs:
        outcome = await one_run(
            args.url, args.channels, replicas, kill, latency, args.lease, workspaces, shared
        )
        print(outcome.line())
        print(outcome.cpu_line(), flush=True)
        outcomes.append(outcome)
    one, three, killed, alone = outcomes
    ratio = one.last / three.last
    print(
        f"throughput, 3 replicas vs 1 (slot to last question): {ratio:.2f}x"
        f" (target >= {TARGET_RATIO}x where the platform's limits allow):"
        f" {'met' if ratio >= TARGET_RATIO else 'NOT met'};"
        f" each pacing as if alone: {one.last / alone.last:.2f}x at a peak of {alone.peak}"
        f" posts a second in one workspace (limit {DEFAULT_POSTS_PER_SECOND:.0f})"
    )
    safe = killed.duplicates == 0 and killed.lost == 0
    print(
        f"SIGKILL mid-fan-out: {'0 duplicates, 0 lost' if safe else 'NOT safe'};"
        f" slot to last question {killed.last:.2f} s (includes the {args.lease:.0f} s lease)"
    )


if __name__ == "__main__":
    asyncio.run(main())
