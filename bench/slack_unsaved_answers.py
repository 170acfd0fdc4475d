"""Answers acknowledged but lost: signed Slack answer events over HTTP while the store cannot write.

Black box: a running quiz in Slack HTTP mode (a fake Slack Web API behind it) gets
a question posted, then another SQLite connection takes the write lock and holds
it beyond the store's busy timeout. N signed answer events are POSTed to
``/slack/events``. The lock is released and every event Slack would deliver again
(anything answered non-2xx) is sent again, with Slack's retry headers, up to
Slack's three retries. Prints how many events were acknowledged (2xx) while the
store was failing, how many answers were saved in the end, and how many were
acknowledged but lost, plus whether any answer counted twice.

    python bench/slack_unsaved_answers.py [--events 2000] [--members 200] [--in-flight 50]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
from pydantic import SecretStr

from adapters.slack.connector import SlackPlatform
from adapters.slack.factory import create_slack_platform
from adapters.slack.settings import SlackSettings
from bot.kernel.config import QuizConfig
from bot.service import QuizService
from questions.loader import load_catalog
from storage.sqlite.store import SqliteStore
from tests.slack.fake_slack import BOT_TOKEN, TEAM, FakeSlack
from tests.slack.signed import FORM, JSON, SIGNING_SECRET, command_body, signed_headers

CHANNEL = "C0BENCH"
ADMIN = "U0ADMIN"
SLACK_RETRIES = 3  # Slack retries a failed delivery three times


class WallClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class Delivery:
    event_id: str
    body: str
    first_status: int = 0
    final_status: int = 0


def answer_body(event_id: str, *, user: str, ts: str, thread_ts: str) -> str:
    return json.dumps(
        {
            "team_id": TEAM,
            "api_app_id": "A0APP",
            "type": "event_callback",
            "event_id": event_id,
            "event_time": int(time.time()),
            "event": {
                "type": "message",
                "channel": CHANNEL,
                "user": user,
                "text": f"an answer from {user}",
                "ts": ts,
                "thread_ts": thread_ts,
            },
        }
    )


async def post(session: aiohttp.ClientSession, url: str, body: str, retry: int) -> int:
    headers = signed_headers(body, content_type=JSON)
    if retry:
        headers |= {"x-slack-retry-num": str(retry), "x-slack-retry-reason": "http_error"}
    async with session.post(url, data=body.encode(), headers=headers) as response:
        await response.read()
        return response.status


async def deliver_all(
    session: aiohttp.ClientSession, url: str, deliveries: list[Delivery], retry: int, limit: int
) -> None:
    gate = asyncio.Semaphore(limit)

    async def one(delivery: Delivery) -> None:
        async with gate:
            status = await post(session, url, delivery.body, retry)
        if retry == 0:
            delivery.first_status = status
        delivery.final_status = status

    await asyncio.gather(*(one(d) for d in deliveries))


async def run(args: argparse.Namespace) -> None:
    fake = FakeSlack(users={ADMIN: {"is_admin": True, "name": "Ada"}})
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "quiz.db"
        settings = SlackSettings(
            _env_file=None,  # type: ignore[call-arg]
            slack_bot_token=SecretStr(BOT_TOKEN),
            slack_signing_secret=SecretStr(SIGNING_SECRET),
            slack_api_url=fake.api_url,
        )
        slack: SlackPlatform = create_slack_platform(
            settings, http=True, host="127.0.0.1", port=0, post_interval=0
        )
        async with SqliteStore.open(db_path, busy_timeout_ms=args.busy_timeout_ms) as store:
            service = QuizService(
                store=store,
                platforms={"slack": slack},
                catalog=load_catalog(),
                clock=WallClock(),
                config=QuizConfig(default_schedule=None),
                rng=random.Random(1),
                background=False,
            )
            await service.start()
            await slack.start(service.handle)
            try:
                await measure(args, fake, slack, service, store, db_path)
            finally:
                await slack.stop()
                await service.stop()
    await fake.stop()


async def measure(
    args: argparse.Namespace,
    fake: FakeSlack,
    slack: SlackPlatform,
    service: QuizService,
    store: SqliteStore,
    db_path: Path,
) -> None:
    assert slack.http_transport is not None
    url = f"http://127.0.0.1:{slack.http_transport.bound_port}/slack/events"
    async with aiohttp.ClientSession() as session:
        body = command_body("now", user=ADMIN, channel=CHANNEL, response_url=f"{fake.url}/r/1")
        async with session.post(
            url, data=body.encode(), headers=signed_headers(body, content_type=FORM)
        ) as response:
            assert response.status == 200, response.status
        await slack.wait_idle()
        await service.settle()
        [question] = [m for m in fake.posts(CHANNEL) if (m.key or "").endswith(":question")]

        deliveries = [
            Delivery(
                f"Ev{n:07d}",
                answer_body(
                    f"Ev{n:07d}",
                    user=f"U{n % args.members:05d}",
                    ts=f"1765000000.{n:06d}",
                    thread_ts=question.ts,
                ),
            )
            for n in range(args.events)
        ]
        lock = sqlite3.connect(db_path, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")  # the store's writes now time out
        started = time.perf_counter()
        await deliver_all(session, url, deliveries, 0, args.in_flight)
        failing_seconds = time.perf_counter() - started
        lock.execute("ROLLBACK")
        lock.close()

        acknowledged = {d.event_id for d in deliveries if 200 <= d.first_status < 300}
        for retry in range(1, SLACK_RETRIES + 1):
            again = [d for d in deliveries if not 200 <= d.final_status < 300]
            if not again:
                break
            await deliver_all(session, url, again, retry, args.in_flight)

    channel_round = await store.rounds.latest_round((await store.channels.list_channels())[0].id)
    assert channel_round is not None
    rows = await store.answers.round_answers(channel_round.id)
    saved = {a.message_id for a in rows}
    saved_ids = {d.event_id for n, d in enumerate(deliveries) if f"1765000000.{n:06d}" in saved}
    lost_after_ack = len(acknowledged - saved_ids)
    statuses: dict[int, int] = {}
    for delivery in deliveries:
        statuses[delivery.first_status] = statuses.get(delivery.first_status, 0) + 1
    print(f"events sent while the store could not write: {len(deliveries)}")
    print(f"  first answers by status: {dict(sorted(statuses.items()))}")
    print(f"  time to answer them all: {failing_seconds:.2f} s")
    print(f"acknowledged (2xx) while failing:           {len(acknowledged)}")
    print(f"saved after redelivery:                     {len(saved)} of {len(deliveries)}")
    print(f"acknowledged but lost:                      {lost_after_ack}")
    print(f"answers saved twice:                        {len(rows) - len(saved)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--in-flight", type=int, default=50)
    parser.add_argument("--busy-timeout-ms", type=int, default=5)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
