"""A month of a channel for the seasons' tests: rounds in November 2026 (UTC), answers,
grades and reviews, and the turn that ends it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.feature import ChannelSchedule
from bot.kernel.models import ChannelSettings
from tests.fakes import FakePlatform, Sent
from tests.harness import QuizHarness

NOVEMBER = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)  # a Monday
TURN = datetime(2026, 12, 1, 0, 0, tzinfo=UTC)  # the first moment of December, in UTC


async def channel_settings(quiz: QuizHarness) -> ChannelSettings:
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    return channel


def season_schedule(quiz: QuizHarness) -> ChannelSchedule:
    [schedule] = [
        s for s in quiz.service.schedules if isinstance(s, ChannelSchedule) and s.kind == "season"
    ]
    return schedule


async def turn(quiz: QuizHarness, at: datetime = TURN) -> None:
    """The turn's slot fires at ``at``."""
    quiz.clock.set(at)
    await season_schedule(quiz).on_slot((await channel_settings(quiz)).id, at)
    await quiz.service.settle()


async def scheduled_round(quiz: QuizHarness, slot: datetime) -> None:
    quiz.clock.set(slot)
    await quiz.service.post_slot((await channel_settings(quiz)).id, slot)
    await quiz.service.settle()
    quiz.clock.advance(minutes=5)


async def seed_november(quiz: QuizHarness) -> None:
    """Three rounds. Ann answers all three (the most points) but grades herself missed
    each time (her forecast recall falls below an unseen question's by the month's end);
    Bob answers two, grades himself missed then nailed (his recall rises most); Cat
    answers none but reviews Bob's answers, once as Bob graded himself (one helpful
    review) and once not."""
    quiz.clock.set(NOVEMBER - timedelta(hours=1))
    await quiz.command("schedule daily 09:00 UTC")
    for offset in range(3):
        await scheduled_round(quiz, NOVEMBER + timedelta(days=offset))
        await quiz.answer("ann", f"Ann's answer {offset}: shard the cache by head")
        if offset > 0:
            await quiz.answer("bob", f"Bob's answer {offset}: no idea")
        await quiz.command("reveal")
        await quiz.command("grade missed", by="ann")
        if offset > 0:
            await quiz.command("grade missed" if offset == 1 else "grade nailed", by="bob")
            # Bob's answer is #2 of the round; Cat's score 1 agrees with "missed" on day 1
            await quiz.command("rate #2 1", by="cat")


def season_posts(platform: FakePlatform) -> list[Sent]:
    return [m for m in platform.in_channel() if m.key.startswith("season:")]


def field(sent: Sent, name: str) -> str:
    [value] = [f.value for f in sent.card.fields if f.name == name]
    return value
