"""``QuizService.pass_time`` (a console script's ``:wait``) does, in order and once each,
what falls due while the clock moves on, as the schedulers and the outbox worker would in
a process that stays up: every slot of every schedule (two schedules here, so two groups),
each reveal-after an hour after its question, on both store backends. Neither APScheduler
nor the wall clock is involved."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.kernel.refs import ChannelRef
from tests.harness import QuizHarness

OTHER = ChannelRef("fake", "team", "C2", "other")


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


async def rounds_of(quiz: QuizHarness, ref: ChannelRef) -> list[tuple[datetime, datetime | None]]:
    """(scheduled for, revealed at) of each of the channel's rounds, in order."""
    channel = await quiz.service.engine.channel(ref)
    assert channel is not None
    found = []
    number = 1
    while (
        round_ := await quiz.service.store.rounds.round_by_number(channel.id, number)
    ) is not None:
        found.append((round_.scheduled_for, round_.revealed_at))
        number += 1
    return found


async def test_three_days_pass_with_every_slot_and_reveal_once(quiz: QuizHarness) -> None:
    other = replace(quiz, channel=OTHER)
    await quiz.command("schedule daily 09:00 UTC")
    await quiz.command("config reveal-after 1h")
    await other.command("schedule daily 13:30 Europe/Berlin")  # 12:30 UTC in winter
    moments: list[datetime] = []

    end = await quiz.service.pass_time(timedelta(days=3), moments.append)

    assert end == datetime(2026, 12, 3, 8, 0, 3, tzinfo=UTC)  # Monday 08:00:03 + 3 days
    days = [datetime(2026, 11, 30, tzinfo=UTC) + timedelta(days=n) for n in range(3)]
    hour = timedelta(hours=1)
    assert await rounds_of(quiz, quiz.channel) == [
        (day + 9 * hour, day + 10 * hour) for day in days
    ]
    # no reveal-after there: a round's outline comes when the next question closes it
    scheduled = [day + timedelta(hours=12, minutes=30) for day in days]
    assert [at for at, _ in await rounds_of(quiz, OTHER)] == scheduled
    questions = [m for m in quiz.platform.messages if m.key.endswith(":question")]
    assert [m.channel.channel_id for m in questions] == ["C1", "C2"] * 3
    outlines = [m for m in quiz.platform.messages if m.key.endswith(":outline")]
    assert [m.channel.channel_id for m in outlines] == ["C1", "C1", "C2", "C1", "C2"]
    assert moments == sorted(moments) and len(moments) == len(set(moments))
    assert days[0] + 9 * hour in moments and days[2] + 12 * hour + timedelta(minutes=30) in moments
