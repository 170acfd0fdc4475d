"""Time away through the core and the fake platform, with the injected clock:
`/quiz away until DATE|off` and its status, `/quiz me` showing it, the streak kept over
scheduled days away (in `/quiz me` and the recap's streak leaders), no reminders while
away, direct messages, and the right form for bad dates."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.kernel.events import Command
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card
from tests.core.reminders.test_reminders import fire, make_review_due, reminders_to, slot_on
from tests.harness import QuizHarness

FORM = "Use: /quiz away [off|until DATE]\nExample: /quiz away until 20"  # a date two weeks on
MONDAY = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def field(card: Card, name: str) -> str:
    [value] = [f.value for f in card.fields if f.name == name]
    return value


def has_field(card: Card, name: str) -> bool:
    return any(f.name == name for f in card.fields)


async def scheduled_round(quiz: QuizHarness, slot: datetime) -> None:
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    quiz.clock.set(slot)
    await quiz.service.post_slot(channel.id, slot)
    await quiz.service.settle()
    quiz.clock.advance(minutes=5)


async def test_away_status_on_and_off(quiz: QuizHarness) -> None:
    assert (await quiz.command("away", by="ann")).card.title == "Not away"
    set_ = await quiz.command("away until 2026-12-04", by="ann")
    assert set_.card.title == "Away"
    assert "until Fri 04 Dec 2026 (back Sat 05 Dec 2026)" in set_.card.body
    assert await quiz.service.store.away.until("team", "ann") == date(2026, 12, 4)
    shown = await quiz.command("away", by="ann")
    assert shown.card.title == "You are away" and "until Fri 04 Dec 2026" in shown.card.body
    assert (await quiz.command("away", by="bob")).card.title == "Not away"  # per member
    quiz.clock.set(datetime(2026, 12, 2, 9, 0, tzinfo=UTC))
    back = await quiz.command("away off", by="ann")
    assert back.card.title == "Welcome back"
    assert "today's round counts" in back.card.body
    assert await quiz.service.store.away.until("team", "ann") == date(2026, 12, 1)
    assert (await quiz.command("away", by="ann")).card.title == "Not away"
    assert (await quiz.command("away off", by="ann")).card.title == "You were not away."


async def test_quiz_me_shows_it_while_away(quiz: QuizHarness) -> None:
    await quiz.command("now")
    assert not has_field((await quiz.command("me", by="ann")).card, "Away")
    await quiz.command("away until 2026-12-24", by="ann")
    me = (await quiz.command("me", by="ann")).card
    assert field(me, "Away") == "until Thu 24 Dec 2026 (back Fri 25 Dec 2026)"
    quiz.clock.set(datetime(2026, 12, 25, 9, 0, tzinfo=UTC))
    assert not has_field((await quiz.command("me", by="ann")).card, "Away")


@pytest.mark.parametrize(
    ("words", "says"),
    [
        ("away until 04.12.2026", "'04.12.2026' is not a date: write it as YYYY-MM-DD"),
        ("away until 2026-11-29", "2026-11-29 is in the past (today is 2026-11-30)"),
        ("away until 2027-12-01", "2027-12-01 is more than a year ahead: give a date up to"),
        ("away until", "Give the last day you are away: /quiz away until YYYY-MM-DD."),
        ("away tomorrow", "Expected 'until' or 'off', not 'tomorrow'."),
        ("away off 2026-12-04", "off takes nothing after it."),
    ],
)
async def test_bad_dates_are_told_the_right_form(quiz: QuizHarness, words: str, says: str) -> None:
    body = (await quiz.command(words, by="ann")).card.body
    assert says in body and FORM in body
    assert await quiz.service.store.away.until("team", "ann") is None


async def test_a_member_away_for_two_scheduled_days_keeps_their_streak(
    quiz: QuizHarness,
) -> None:
    quiz.clock.set(MONDAY - timedelta(hours=1))
    await quiz.command("schedule daily 09:00 UTC")
    for offset in range(2):  # Mon, Tue: both answer
        await scheduled_round(quiz, MONDAY + timedelta(days=offset))
        await quiz.answer("ann", "an answer")
        await quiz.answer("bob", "an answer")
    await quiz.command("away until 2026-12-03", by="ann")  # Tue through Thu
    for offset in (2, 3):  # Wed, Thu: nobody answers
        await scheduled_round(quiz, MONDAY + timedelta(days=offset))
    await scheduled_round(quiz, MONDAY + timedelta(days=4))  # Fri: both answer
    await quiz.answer("ann", "back")
    await quiz.answer("bob", "back")
    assert field((await quiz.command("me", by="ann")).card, "Streak") == "3 (best 3)"
    assert field((await quiz.command("me", by="bob")).card, "Streak") == "1 (best 2)"


async def test_the_recap_counts_neither_skipped_days_nor_days_away(quiz: QuizHarness) -> None:
    quiz.clock.set(MONDAY - timedelta(hours=1))
    await quiz.command("schedule weekdays 09:00 UTC")
    await quiz.command("schedule skip 2026-12-02")  # Wednesday
    for offset in range(5):
        await scheduled_round(quiz, MONDAY + timedelta(days=offset))
        if offset == 1:
            await quiz.command("away until 2026-12-03", by="bob")  # Tue through Thu
        if offset != 2:
            await quiz.answer("alice", "an answer")
        if offset in (0, 4):
            await quiz.answer("bob", "an answer")
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    recap_slot = datetime(2026, 12, 4, 16, 0, tzinfo=UTC)
    quiz.clock.set(recap_slot)
    await quiz.service.recaps.on_slot(channel.id, recap_slot)
    await quiz.service.settle()
    [recap] = [m.card for m in quiz.platform.in_channel() if m.key.startswith("recap:")]
    assert field(recap, "Rounds").startswith("4 ")  # no round on the skipped Wednesday
    assert (
        field(recap, "Members per day") == "Mon 30 Nov 2, Tue 01 Dec 1, Thu 03 Dec 1, Fri 04 Dec 2"
    )
    assert field(recap, "Streak leaders") == "Alice 4 in a row, Bob 2 in a row"


async def test_no_reminder_while_away_and_again_once_back(quiz: QuizHarness) -> None:
    await quiz.command("remind 08:30 Europe/Berlin", by="ann")
    due = await make_review_due(quiz, "ann")
    day = (due + timedelta(days=1)).astimezone(slot_on(due.date()).tzinfo).date()
    await quiz.command(f"away until {(day + timedelta(days=1)).isoformat()}", by="ann")
    await fire(quiz, "ann", slot_on(day))
    await fire(quiz, "ann", slot_on(day + timedelta(days=1)))
    assert reminders_to(quiz.platform, "ann") == []
    await fire(quiz, "ann", slot_on(day + timedelta(days=2)))  # back that day
    assert len(reminders_to(quiz.platform, "ann")) == 1


async def test_away_in_direct_messages_covers_the_members_workspaces(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.answer("ann", "known in the team")
    dm = ChannelRef(quiz.channel.platform, quiz.channel.workspace, "D-ann", "DM")
    other = ChannelRef(quiz.channel.platform, "0", "D-ann", "DM")  # a DM naming no workspace
    member = quiz.member("ann")
    event = Command(
        "ev-dm",
        other,
        type(member)(member.platform, "0", "ann", "Ann"),
        "away",
        ("until", "2026-12-10"),
        direct=True,
    )
    response = await quiz.service.handle(event)
    assert response is not None and response.card.title == "Away"
    assert await quiz.service.store.away.until("team", "ann") == date(2026, 12, 10)
    assert await quiz.service.store.away.until("0", "ann") == date(2026, 12, 10)
    status = Command("ev-dm2", dm, member, "away", (), direct=True)
    shown = await quiz.service.handle(status)
    assert shown is not None and shown.card.title == "You are away"


async def test_away_may_last_until_the_same_date_next_year(quiz: QuizHarness) -> None:
    body = (await quiz.command("away until 2027-11-30", by="ann")).card.body
    assert "Sorry" not in body
    assert await quiz.service.store.away.until("team", "ann") == date(2027, 11, 30)
