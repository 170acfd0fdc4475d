"""A reveal whose replica is killed mid-send: how long until a surviving, idle replica
posts the outline (issue #21: within the outbox lease plus a few seconds).

Two ``quizbot run`` processes (Slack HTTP mode) on a fresh schema of the PostgreSQL
server of ``--url`` (default: the test server), against the fake Slack served from this
process; outbox leases are ``--lease`` seconds. Replica B stays up and idle the whole
time. Each of ``--rounds`` rounds starts a new replica A, sends it ``/quiz now`` and,
once the question and its thread are out, ``/quiz reveal``; the fake Slack holds the
first post of the reveal (its follow-ups or its outline) unanswered and A is killed
with SIGKILL while it waits, its claim on that action stored. Printed per round: the
time from the kill until B posted the held action, and until the outline was posted
(an outline A had not begun yet is unclaimed, and B may post it sooner), with the worst.

    python bench/replica_takeover.py [--rounds 3] [--lease 10]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import aiohttp
import asyncpg
from aiohttp import web

from storage.postgres.store import PostgresStore
from tests.slack.fake_slack import BOT_TOKEN, FakeSlack
from tests.slack.signed import FORM, SIGNING_SECRET, command_body, signed_headers

ROOT = Path(__file__).resolve().parent.parent
CHANNEL = "C0TAKEOVER"
ADMIN = "U0ADMIN"
REVEAL_POSTS = (":follow_ups", ":outline")  # the actions a reveal queues


@dataclass
class HoldingSlack(FakeSlack):
    """The fake Slack, which can hold the next post of a reveal unanswered (and unposted)
    until the replica that sent it is killed."""

    hold_next: bool = False
    held_key: str = ""
    held: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    posted_at: dict[str, float] = field(default_factory=dict)  # key: wall time

    async def _api(self, request: web.Request) -> web.Response:
        if request.match_info["method"] == "chat.postMessage" and self.hold_next:
            body = unquote(await request.text())
            key = re.search(r'"key":\s*"([^"]+)"', body)
            if key is not None and key[1].endswith(REVEAL_POSTS):
                self.hold_next = False
                self.held_key = key[1]
                self.held.set()
                await self.release.wait()  # the sender is dead by now: nothing is posted
                return web.json_response({"ok": False, "error": "internal_error"})
        return await super()._api(request)

    def _chat_postMessage(self, params: Any) -> dict[str, Any]:
        answer = super()._chat_postMessage(params)
        key = self.messages[-1].key
        if key is not None:
            self.posted_at.setdefault(key, time.time())
        return answer


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Replica:
    process: Any
    port: int

    @property
    def events_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/slack/events"


def start_replica(fake: FakeSlack, database_url: str, lease: float, log: Path) -> Replica:
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("QUIZBOT_")},
        "QUIZBOT_PLATFORM": "slack",
        "QUIZBOT_SLACK_MODE": "http",
        "QUIZBOT_SLACK_HTTP_PORT": str(port),
        "QUIZBOT_SLACK_BOT_TOKEN": BOT_TOKEN,
        "QUIZBOT_SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "QUIZBOT_SLACK_API_URL": fake.api_url,
        "QUIZBOT_DATABASE_URL": database_url,
        "QUIZBOT_OUTBOX_LEASE_SECONDS": str(lease),
        "QUIZBOT_SLACK_REPLICAS": "2",
        "QUIZBOT_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from adapters.cli.main import main; raise SystemExit(main(['run']))",
        ],
        cwd=log.parent,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
    )
    return Replica(process, port)


async def until_listening(replica: Replica, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if replica.process.poll() is not None:
            raise RuntimeError("a replica exited while starting")
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", replica.port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        writer.close()
        return
    raise RuntimeError("a replica did not start listening")


async def until(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def command(session: aiohttp.ClientSession, fake: FakeSlack, to: Replica, text: str) -> None:
    body = command_body(text, user=ADMIN, channel=CHANNEL, response_url=f"{fake.url}/response/1")
    headers = signed_headers(body, content_type=FORM)
    async with session.post(to.events_url, data=body.encode(), headers=headers) as response:
        if response.status != 200:
            raise RuntimeError(f"/quiz {text} answered {response.status}")


def keys_ending(fake: FakeSlack, suffix: str) -> list[str]:
    return [m.key for m in fake.messages if m.key is not None and m.key.endswith(suffix)]


async def one_round(
    session: aiohttp.ClientSession,
    fake: HoldingSlack,
    url: str,
    lease: float,
    workdir: Path,
    n: int,
) -> tuple[str, float, float]:
    """The action A held when killed mid-reveal, and the seconds from the kill until it
    was posted and until the outline was."""
    a = start_replica(fake, url, lease, workdir / f"replica-a{n}.log")
    try:
        await until_listening(a)
        questions = len(keys_ending(fake, ":question"))
        await command(session, fake, a, "now")
        await until(lambda: len(keys_ending(fake, ":question")) > questions, 30, "the question")
        await asyncio.sleep(2)  # its thread and hint
        fake.held.clear()
        fake.release.clear()
        fake.hold_next = True
        outlines = len(keys_ending(fake, ":outline"))
        await command(session, fake, a, "reveal")
        await asyncio.wait_for(fake.held.wait(), 30)
        a.process.send_signal(signal.SIGKILL)
        killed_at = time.time()
        a.process.wait(timeout=20)
        fake.release.set()
        held = fake.held_key
        await until(lambda: held in fake.posted_at, 4 * lease + 120, f"{held} to be posted")
        await until(
            lambda: len(keys_ending(fake, ":outline")) > outlines, 4 * lease + 120, "the outline"
        )
        [outline] = keys_ending(fake, ":outline")[outlines:]
        return held, fake.posted_at[held] - killed_at, fake.posted_at[outline] - killed_at
    finally:
        if a.process.poll() is None:
            a.process.kill()
            a.process.wait(timeout=20)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--url",
        default=os.environ.get(
            "QUIZBOT_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
        ),
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--lease", type=float, default=10.0)
    args = parser.parse_args()
    schema = f"quizbot_bench_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(args.url)
    await admin.execute(f"CREATE SCHEMA {schema}")
    url = f"{args.url}{'&' if '?' in args.url else '?'}search_path={schema}"
    fake = HoldingSlack(users={ADMIN: {"is_admin": True, "name": "Ada"}}, ts_base=time.time())
    await fake.start()
    b: Replica | None = None
    try:
        async with PostgresStore.open(url):
            pass  # migrated before the replicas start
        with tempfile.TemporaryDirectory() as folder:
            workdir = Path(folder)
            b = start_replica(fake, url, args.lease, workdir / "replica-b.log")
            await until_listening(b)
            print(f"outbox lease {args.lease:.0f} s; replica B idle, replica A killed mid-reveal")
            async with aiohttp.ClientSession() as session:
                took = []
                for n in range(args.rounds):
                    held, taken, outline = await one_round(
                        session, fake, url, args.lease, workdir, n
                    )
                    took.append((taken, outline))
                    print(
                        f"round {n + 1}: A held {held.rsplit(':', 1)[1]}, posted by B"
                        f" {taken:.1f} s after the kill; outline posted after {outline:.1f} s",
                        flush=True,
                    )
            print(
                f"worst: held action {max(t for t, _ in took):.1f} s, outline"
                f" {max(o for _, o in took):.1f} s after the kill (lease {args.lease:.0f} s;"
                " goal: the lease plus a few seconds)"
            )
    finally:
        if b is not None and b.process.poll() is None:
            b.process.send_signal(signal.SIGTERM)
            try:
                b.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                b.process.kill()
        await fake.stop()
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
