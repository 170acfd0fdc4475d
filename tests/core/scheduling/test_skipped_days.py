"""Holidays: `/quiz schedule skip|unskip DATE[..DATE]` through the core and the fake
platform, with the injected clock: a skipped local date posts nothing (neither when its
slot fires nor when it is caught up after downtime), the next day posts, `/quiz schedule`
lists the skips ahead and the next slot that really posts, and bad dates get the form."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness, running_service

FORM = "Use: /quiz schedule [skip|unskip DATE[..DATE]] [SPEC... [TIMEZONE]]"


async def channel_id(quiz: QuizHarness) -> int:
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    return channel.id


async def fire(quiz: QuizHarness, slot: datetime) -> list[str]:
    """The slot fires at its time on the injected clock; the titles posted in the channel."""
    before = len(quiz.platform.in_channel())
    quiz.clock.set(slot)
    await quiz.service.post_slot(await channel_id(quiz), slot)
    await quiz.service.settle()
    return [m.card.title for m in quiz.platform.in_channel()[before:]]


def field(response_fields: object, name: str) -> str:
    for f in response_fields:  # type: ignore[attr-defined]
        if f.name == name:
            return str(f.value)
    raise AssertionError(f"no field {name!r}")


@pytest.fixture
async def berlin(quiz: QuizHarness) -> QuizHarness:
    """Weekdays at 09:00 Berlin; the clock at Mon 2026-11-30 09:00 Berlin (08:00 UTC)."""
    await quiz.command("schedule weekdays 09:00 Europe/Berlin")
    return quiz


async def test_a_skipped_day_does_not_post_and_the_next_day_does(berlin: QuizHarness) -> None:
    skipped = await berlin.command("schedule skip 2026-12-01")
    assert "No question on Tue 01 Dec 2026" in skipped.card.body
    tuesday = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)  # 09:00 in Berlin
    wednesday = datetime(2026, 12, 2, 8, 0, tzinfo=UTC)
    assert await fire(berlin, tuesday) == []
    assert await fire(berlin, wednesday) == ["Question #1"]


async def test_the_schedule_shows_the_skips_ahead_and_the_next_real_post(
    berlin: QuizHarness,
) -> None:
    await berlin.command("schedule skip 2026-12-01..2026-12-03")
    await berlin.command("schedule skip 2026-12-24")
    shown = await berlin.command("schedule", by="ann")  # members see it too
    fields = shown.card.fields
    assert field(fields, "Next question") == "Fri 04 Dec 2026 09:00 CET"
    assert field(fields, "Skipped days ahead") == (
        "Tue 01 Dec 2026 – Thu 03 Dec 2026\nThu 24 Dec 2026"
    )
    unskipped = await berlin.command("schedule unskip 2026-12-01..2026-12-02")
    assert "2 days had been skipped" in unskipped.card.body
    assert field(unskipped.card.fields, "Next question") == "Tue 01 Dec 2026 09:00 CET"
    assert field(unskipped.card.fields, "Skipped days ahead") == (
        "Thu 03 Dec 2026\nThu 24 Dec 2026"
    )


async def test_skipping_is_for_admins(berlin: QuizHarness) -> None:
    refused = await berlin.command("schedule skip 2026-12-01", by="ann")
    assert "admin" in (refused.card.body + refused.card.title).lower()
    stored = await berlin.service.store.skipped_days.skipped_days(
        await channel_id(berlin), date(2026, 11, 30)
    )
    assert stored == []


@pytest.mark.parametrize(
    ("words", "says"),
    [
        ("skip 24.12.2026", "Give the dates to skip or unskip"),
        ("skip 2026-12-32", "'2026-12-32' is not a date: write it as YYYY-MM-DD"),
        ("skip 2026-12-26..2026-12-24", "runs backwards: write the earlier date first"),
        ("skip 2026-12-01..2028-01-01", "longer than a year"),
        ("skip 2026-11-29", "2026-11-29 is in the past (today is 2026-11-30)"),
        ("skip 2027-12-01", "2027-12-01 is more than a year ahead: give a date up to 2027-11-30"),
        ("skip 9999-12-30..9999-12-31", "9999-12-31 is more than a year ahead"),
        ("unskip 2026-12-01 weekdays", "takes one date or range"),
    ],
)
async def test_bad_dates_are_told_the_right_form(
    berlin: QuizHarness, words: str, says: str
) -> None:
    response = await berlin.command(f"schedule {words}")
    assert says in response.card.body
    assert FORM in response.card.body or "Example: /quiz schedule skip" in response.card.body


async def test_the_past_is_the_channels_local_date(quiz: QuizHarness) -> None:
    """At 08:00 UTC on 30 Nov it is still the 29th in Honolulu: the 29th is today there,
    and the 28th past."""
    await quiz.command("schedule daily 10:00 Pacific/Honolulu")
    assert "No question on" in (await quiz.command("schedule skip 2026-11-29")).card.body
    past = await quiz.command("schedule skip 2026-11-28")
    assert "2026-11-28 is in the past (today is 2026-11-29)" in past.card.body


async def test_a_skipped_day_is_not_caught_up_after_downtime(
    berlin: QuizHarness, db_path: Path, platform: FakePlatform, catalog: Catalog
) -> None:
    await berlin.command("schedule skip 2026-12-01")
    await berlin.service.stop()
    before = len(platform.in_channel())
    back = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)  # two hours after the skipped slot
    async with running_service(db_path, [platform], FakeClock(back), catalog) as service:
        await service.settle()
    assert platform.in_channel()[before:] == []
    back = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)  # two hours after Wednesday's slot
    async with running_service(db_path, [platform], FakeClock(back), catalog) as service:
        await service.settle()
    assert [m.card.title for m in platform.in_channel()[before:]] == ["Question #1"]


async def test_the_same_date_next_year_may_be_skipped(berlin: QuizHarness) -> None:
    assert "No question on" in (await berlin.command("schedule skip 2027-11-30")).card.body
