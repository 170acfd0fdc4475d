"""Slack Home tab: how soon a member's page is published after ``app_home_opened``.

A quiz in Slack HTTP mode (the fake Slack Web API of the tests behind it) with a member who
answered and graded ROUNDS rounds; then the member opens the Home tab OPENINGS times
(signed Events API requests dispatched through the bolt app). For each opening it times,
from the dispatch: the acknowledgement (Slack wants it within 3 s), the first
``views.publish`` (the page's text, with the chart uploaded before if any) and, on the
first opening, the publish with the freshly drawn and uploaded chart. Prints the median
and the worst of each.

    PYTHONPATH=. python bench/home_tab.py [--rounds 30] [--openings 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from adapters.slack.settings import SlackSettings
from bot.kernel.config import QuizConfig
from questions.loader import load_catalog
from tests.fakes import FakeClock
from tests.slack.driver import running_slack_quiz
from tests.slack.fake_slack import BOT_TOKEN, FakeSlack
from tests.slack.signed import JSON, SIGNING_SECRET, bolt_request, event_body

MEMBER = "U0BENCH"


async def main(rounds: int, openings: int) -> None:
    clock = FakeClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    fake = FakeSlack(users={"U0ADMIN": {"is_admin": True, "name": "Ada"}})
    await fake.start()
    published: list[float] = []
    publish = fake._views_publish

    def timed_publish(params: Any) -> dict[str, Any]:
        published.append(time.perf_counter())
        return publish(params)

    fake._views_publish = timed_publish  # type: ignore[method-assign]
    settings = SlackSettings(
        _env_file=None,  # type: ignore[call-arg]
        slack_bot_token=SecretStr(BOT_TOKEN),
        slack_signing_secret=SecretStr(SIGNING_SECRET),
        slack_api_url=fake.api_url,
    )
    try:
        with tempfile.TemporaryDirectory() as folder:
            async with running_slack_quiz(
                Path(folder) / "quiz.db",
                settings,
                fake,
                clock,
                load_catalog(),
                QuizConfig(default_schedule=None),
            ) as quiz:
                for _ in range(rounds):
                    clock.advance(days=1)
                    await quiz.command("now")
                    await quiz.reply("an answer", by=MEMBER)
                    await quiz.react("bulb", by=MEMBER, ts=quiz.question().ts)
                    await quiz.command("grade partly", by=MEMBER)
                acks, firsts, charts = [], [], []
                for n in range(openings):
                    published.clear()
                    body = event_body({"type": "app_home_opened", "user": MEMBER, "tab": "home"})
                    started = time.perf_counter()
                    response = await quiz.slack.app.async_dispatch(
                        bolt_request(body, content_type=JSON)
                    )
                    acks.append(time.perf_counter() - started)
                    assert response.status == 200
                    await quiz.slack.wait_idle()
                    firsts.append(published[0] - started)
                    if n == 0:
                        charts.append(published[-1] - started)
    finally:
        await fake.stop()
    print(f"{rounds} graded rounds, {openings} openings of the Home tab")
    for name, figures in (
        ("acknowledged", acks),
        ("page published", firsts),
        ("with its chart (first opening)", charts),
    ):
        print(
            f"  {name:32s} median {statistics.median(figures) * 1000:7.1f} ms"
            f"   worst {max(figures) * 1000:7.1f} ms"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--openings", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.openings))
