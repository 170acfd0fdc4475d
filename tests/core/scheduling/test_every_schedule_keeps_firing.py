"""Rounds, recaps, pairing and reminders keep coming in one process over two weeks, on both
store backends: the service runs with its schedulers, and APScheduler's own job processing
decides when they fire (``tests.scheduler_time``), as in a bot that is never restarted.

One channel is one schedule group in each of the four schedulers, the case in which the
one job was removed at its first slot: each came once, then never again.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.kernel.grades import Grade
from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness
from tests.scheduler_time import SchedulerTime, staying_up
from tests.storage.backends import BACKENDS

DAYS = 15  # from Monday 2026-11-30 08:00 UTC: three Mondays, two Fridays


@pytest.fixture(params=BACKENDS)
async def running(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
) -> AsyncIterator[tuple[QuizHarness, SchedulerTime]]:
    """The service with its schedulers on, APScheduler on the fake clock."""
    async with staying_up(request.param, tmp_path, platform, clock, catalog) as running:
        yield running


async def test_each_schedule_fires_every_time_in_one_process(
    running: tuple[QuizHarness, SchedulerTime], platform: FakePlatform, clock: FakeClock
) -> None:
    quiz, time = running
    start = clock.now()
    await quiz.command("schedule daily 09:00 UTC")  # recaps Friday 16:00, pairing Monday 10:00
    for name in ("ann", "bob"):
        await quiz.command("pair on", by=name)
    await quiz.command("remind 10:00 UTC", by="ann")

    await time.run_until(start.replace(hour=9, minute=1))  # the first question
    round_ = await quiz.round()
    ann = await quiz.service.store.members.member_id(quiz.member("ann"))
    await quiz.service.learning.grade(ann, round_.question_id, Grade.MISSED, clock.now())

    await time.run_until(start + timedelta(days=DAYS))

    sent = platform.messages
    first_day = start.date() + timedelta(days=1)
    # all four at once, so that a failure names each one that stopped
    assert {
        "questions": len([m for m in sent if m.key.endswith(":question")]),
        "recaps": [m.key.rsplit(":", 1)[1] for m in sent if m.key.startswith("recap:")],
        "pairings": len([m for m in sent if m.card.title == "Mock interview of the week"]),
        "reminders": [m.key for m in sent if m.card.title == "Time to review"],
    } == {
        "questions": DAYS,  # daily 09:00
        "recaps": ["2026-W49", "2026-W50"],  # Fridays 16:00
        "pairings": 3,  # Mondays 10:00
        "reminders": [  # daily 10:00, from the day the review is due
            f"remind:{ann}:{(first_day + timedelta(days=n)).isoformat()}" for n in range(DAYS - 1)
        ],
    }


async def test_a_changed_schedules_next_slot_posts(
    running: tuple[QuizHarness, SchedulerTime], clock: FakeClock
) -> None:
    quiz, time = running
    start = clock.now()  # Monday 08:00 UTC
    await quiz.command("schedule 22 9 * * * UTC")
    await time.run_until(start.replace(hour=9, minute=30))
    await quiz.command("schedule daily 10:00 UTC")  # after the old schedule's slot fired
    await time.run_until(start + timedelta(days=1, hours=3))
    await quiz.command("schedule daily 08:30 UTC")  # after today's 08:30: tomorrow's
    await time.run_until(start + timedelta(days=2, hours=3))

    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    rounds = [await quiz.service.store.rounds.round_by_number(channel.id, n) for n in range(1, 6)]
    assert [r.scheduled_for for r in rounds if r is not None] == [
        start.replace(hour=9, minute=22),
        start.replace(hour=10),
        start.replace(hour=10) + timedelta(days=1),
        start.replace(hour=8, minute=30) + timedelta(days=2),
    ]
