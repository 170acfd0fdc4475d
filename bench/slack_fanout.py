"""Slack fan-out: 200 channels due at the same slot, against a fake Slack that enforces
one post per second per channel and a workspace-wide post limit.

Slack documents chat.postMessage as "one message per second per channel, while also
maintaining a workspace-wide limit" without publishing that limit; the fake takes it
as ``--workspace-limit`` posts in any one second (default 10). One task per channel
posts a question card through ``SlackPlatform`` at once; a post that still fails
after the SDK's retry goes back and is tried again after its Retry-After, as the
outbox does. Run twice in one process: without workspace pacing (as before
issue 9), then paced. Prints the posts answered 429, their share of the posts, and
the time from the slot to the last post against the floor (posts / workspace
limit). Targets: 429s < 5 % of posts, time <= 1.3x the floor.

    PYTHONPATH=. python bench/slack_fanout.py [--channels 200] [--workspace-limit 10]
                                                [--rate 9]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import time

from pydantic import SecretStr

from adapters.slack.factory import create_slack_platform
from adapters.slack.settings import SlackSettings
from bot.kernel.errors import PlatformError
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card
from tests.slack.fake_slack import BOT_TOKEN, TEAM, FakeSlack

CARD = Card(title="Question #1", body="What limits a ring all-reduce?")


async def fan_out(args: argparse.Namespace, rate: float | None) -> tuple[int, int, float]:
    fake = FakeSlack(channel_interval=1.0, workspace_limit=args.workspace_limit)
    await fake.start()
    settings = SlackSettings(
        _env_file=None,  # type: ignore[call-arg]
        slack_bot_token=SecretStr(BOT_TOKEN),
        slack_app_token=SecretStr("xapp-unused"),
        slack_api_url=fake.api_url,
    )
    platform = create_slack_platform(settings, workspace_rate=rate)

    async def post(n: int) -> None:
        channel = ChannelRef("slack", TEAM, f"C{n:05d}")
        while True:
            try:
                await platform.post(channel, CARD, key=f"round:{n}:question")
                return
            except PlatformError as problem:
                await asyncio.sleep(problem.retry_after or 1.0)

    started = time.perf_counter()
    await asyncio.gather(*(post(n) for n in range(args.channels)))
    elapsed = time.perf_counter() - started
    await platform.stop()
    await fake.stop()
    return fake.calls.count("chat.postMessage"), fake.throttled, elapsed


async def run(args: argparse.Namespace) -> None:
    floor = args.channels / args.workspace_limit
    print(
        f"{args.channels} channels, one post each; fake Slack: 1 post/s per channel,"
        f" {args.workspace_limit} posts/s per workspace; floor {floor:.1f} s"
    )
    for label, rate in (("unpaced (before)", None), (f"paced at {args.rate:g}/s", args.rate)):
        requests, throttled, elapsed = await fan_out(args, rate)
        print(
            f"{label:>18}: {requests} chat.postMessage requests, {throttled} answered 429"
            f" ({throttled / args.channels:.1%} of posts), last post after {elapsed:.1f} s"
            f" = {elapsed / floor:.2f}x the floor"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--workspace-limit", type=int, default=10)
    parser.add_argument("--rate", type=float, default=9.0)
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
