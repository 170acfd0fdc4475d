"""Holidays and time away on Discord, through the fake Discord and its slash command
options: `/quiz schedule action:skip|unskip days:DATE[..DATE]` and the skips it lists,
`/quiz away mode:until date:DATE|off` and its status, in the guild and in the bot's DM."""

from __future__ import annotations

from datetime import date
from typing import Any

from tests.discord.conftest import command_payload, eventually
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    LEAD,
    Quiz,
    quiz,
)


async def said(quiz: Quiz, user: int, name: str, options: dict[str, object]) -> str:  # noqa: F811
    """What the member was answered to ``/quiz NAME`` with these options."""
    before = len(quiz.fake.interaction_replies)
    await quiz.command(user, name, options)
    await quiz.service.settle()
    return str(quiz.fake.interaction_replies[before:])


async def skipped(quiz: Quiz) -> list[date]:  # noqa: F811
    [channel] = await quiz.store.channels.list_channels()
    return await quiz.store.skipped_days.skipped_days(channel.id, date(2025, 1, 1))


async def test_admins_skip_and_unskip_and_members_see_the_skips(quiz: Quiz) -> None:  # noqa: F811
    told = await said(quiz, LEAD, "schedule", {"action": "skip", "days": "2025-01-07..2025-01-08"})
    assert "No question on Tue 07 Jan 2025 – Wed 08 Jan 2025" in told
    assert await skipped(quiz) == [date(2025, 1, 7), date(2025, 1, 8)]
    shown = await said(quiz, ANN, "schedule", {})
    assert "Skipped days ahead" in shown and "Tue 07 Jan 2025 – Wed 08 Jan 2025" in shown
    told = await said(quiz, LEAD, "schedule", {"action": "unskip", "days": "2025-01-08"})
    assert "1 day had been skipped" in told
    assert await skipped(quiz) == [date(2025, 1, 7)]
    refused = await said(quiz, ANN, "schedule", {"action": "skip", "days": "2025-01-09"})
    assert "admin" in refused.lower() and await skipped(quiz) == [date(2025, 1, 7)]


async def test_a_bad_date_gets_the_form(quiz: Quiz) -> None:  # noqa: F811
    told = await said(quiz, LEAD, "schedule", {"action": "skip", "days": "2025-01-05"})
    assert "2025-01-05 is in the past (today is 2025-01-06)" in told
    assert "/quiz schedule [skip|unskip DATE[..DATE]]" in told
    told = await said(quiz, ANN, "away", {"mode": "until", "date": "06/01/2025"})
    assert "'06/01/2025' is not a date: write it as YYYY-MM-DD" in told
    assert "/quiz away [off|until DATE]" in told


async def test_away_on_status_and_off(quiz: Quiz) -> None:  # noqa: F811
    told = await said(quiz, ANN, "away", {"mode": "until", "date": "2025-01-10"})
    assert "until Fri 10 Jan 2025 (back Sat 11 Jan 2025)" in told
    guild = str(quiz.fake.guild_id)
    assert await quiz.store.away.until(guild, str(ANN)) == date(2025, 1, 10)
    assert "You are away" in await said(quiz, ANN, "away", {})
    assert "Welcome back" in await said(quiz, ANN, "away", {"mode": "off"})
    # a period begun today and ended today leaves nothing behind
    assert await quiz.store.away.until(guild, str(ANN)) is None
    assert "Not away" in await said(quiz, ANN, "away", {})


async def test_away_from_the_dm_covers_the_guild(quiz: Quiz) -> None:  # noqa: F811
    await said(quiz, ANN, "away", {})  # known in the guild
    dm = int(quiz.fake._direct_channel(ANN)["id"])
    payload: dict[str, Any] = command_payload(
        quiz.fake, ANN, "away", {"mode": "until", "date": "2025-01-12"}, channel_id=dm
    )
    member = payload.pop("member")
    del payload["guild_id"]
    payload["user"] = member["user"]
    payload["context"] = 1  # the bot's DM
    replies = len(quiz.fake.interaction_replies)
    await quiz.run("INTERACTION_CREATE", payload)
    await eventually(lambda: len(quiz.fake.interaction_replies) >= replies + 2)
    assert "until Sun 12 Jan 2025" in str(quiz.fake.interaction_replies[replies:])
    guild = str(quiz.fake.guild_id)
    assert await quiz.store.away.until(guild, str(ANN)) == date(2025, 1, 12)
