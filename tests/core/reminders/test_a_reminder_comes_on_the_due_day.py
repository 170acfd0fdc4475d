"""The daily reminder asks what is due during the member's local day, on both backends: a
member told "this question comes back for you on Tue 01 Dec" is reminded that morning,
not the day after (nor, after a restart, at whatever hour the catch-up found it due)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from tests.fakes import FakePlatform
from tests.harness import QuizHarness

BERLIN = ZoneInfo("Europe/Berlin")


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


def reminders(platform: FakePlatform) -> list[str]:
    return [m.key for m in platform.messages if m.card.title == "Time to review"]


async def graded_missed(quiz: QuizHarness, member: str) -> date:
    """The member answers a round, reveals it and grades it "missed"; the day they are
    told the question comes back."""
    await quiz.command("now")
    await quiz.answer(member, "all-reduce, I think")
    await quiz.react(member, "💡")
    told = await quiz.command("grade missed", by=member)
    found = re.search(r"comes back for you on (\w{3} \d{2} \w{3} \d{4})", told.card.body)
    assert found is not None, told.card.body
    return datetime.strptime(found[1], "%a %d %b %Y").date()


async def fire_reminder(quiz: QuizHarness, member: str, day: date, at: time) -> None:
    slot = datetime.combine(day, at, tzinfo=BERLIN).astimezone(UTC)
    quiz.clock.set(slot)
    member_id = await quiz.service.store.members.member_id(quiz.member(member))
    await quiz.service.reminders.on_slot(member_id, slot)
    await quiz.service.settle()


async def test_the_reminder_comes_on_the_morning_the_review_is_due(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await quiz.command("schedule weekdays 09:00 Europe/Berlin")
    quiz.clock.set(datetime(2026, 11, 30, 14, 0, tzinfo=BERLIN))  # Monday afternoon
    await quiz.command("remind 08:00", by="ann")  # the channel's timezone
    comes_back = await graded_missed(quiz, "ann")
    ann = await quiz.service.store.members.member_id(quiz.member("ann"))

    await fire_reminder(quiz, "ann", comes_back, time(8, 0))

    assert reminders(platform) == [f"remind:{ann}:{comes_back.isoformat()}"], (
        f"told the question comes back on {comes_back}, reminded on no morning of that day"
    )
    await fire_reminder(quiz, "ann", comes_back + timedelta(days=1), time(8, 0))
    assert len(reminders(platform)) == 2  # still not reviewed: the next morning again


async def test_no_reminder_the_day_before_the_review_is_due(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await quiz.command("schedule weekdays 09:00 Europe/Berlin")
    quiz.clock.set(datetime(2026, 11, 30, 14, 0, tzinfo=BERLIN))
    await quiz.command("remind 23:30", by="ann")
    comes_back = await graded_missed(quiz, "ann")

    await fire_reminder(quiz, "ann", comes_back - timedelta(days=1), time(23, 30))

    assert reminders(platform) == []
