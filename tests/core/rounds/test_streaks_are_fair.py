"""Streaks are fair: a scheduled round an admin closed with `/quiz skip` is excused for the
members who had not answered it (as a skipped day is), in `/quiz me`, on the member's page
and in the recap's streak leaders; and rounds posted with `/quiz now` neither count nor
break a streak, which `/quiz me` says when a member's answers do not add to it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.kernel.render import Card
from tests.harness import QuizHarness

MONDAY = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


def field(card: Card, name: str) -> str:
    [value] = [f.value for f in card.fields if f.name == name]
    return value


async def scheduled_round(quiz: QuizHarness, slot: datetime) -> None:
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    quiz.clock.set(slot)
    await quiz.service.post_slot(channel.id, slot)
    await quiz.service.settle()
    quiz.clock.advance(minutes=5)


async def four_days_with_a_skip(quiz: QuizHarness) -> None:
    """Mon to Thu on a daily schedule; Wednesday's round is skipped by the admin after
    bob answered it and before ann did. Ann answers every other day, bob every day."""
    quiz.clock.set(MONDAY - timedelta(hours=1))
    await quiz.command("schedule daily 09:00 UTC")
    for offset in range(4):
        await scheduled_round(quiz, MONDAY + timedelta(days=offset))
        await quiz.answer("bob", "an answer")
        if offset == 2:
            await quiz.command("skip")
        else:
            await quiz.answer("ann", "an answer")


async def test_a_skipped_round_does_not_break_the_streak_of_who_had_not_answered(
    quiz: QuizHarness,
) -> None:
    await four_days_with_a_skip(quiz)
    assert field((await quiz.command("me", by="ann")).card, "Streak").startswith("3 (best 3)")
    assert field((await quiz.command("me", by="bob")).card, "Streak").startswith("4 (best 4)")


async def test_the_members_page_counts_a_skipped_round_as_me_does(quiz: QuizHarness) -> None:
    await four_days_with_a_skip(quiz)
    page = await quiz.service.home.page(quiz.member("ann"))
    assert "streak 3 (best 3)" in field(page.card, "#practice")


async def test_the_recap_leaders_count_a_skipped_round_as_me_does(quiz: QuizHarness) -> None:
    await four_days_with_a_skip(quiz)
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    recap_slot = datetime(2026, 12, 3, 16, 0, tzinfo=UTC)
    quiz.clock.set(recap_slot)
    await quiz.service.recaps.on_slot(channel.id, recap_slot)
    await quiz.service.settle()
    [recap] = [m.card for m in quiz.platform.in_channel() if m.key.startswith("recap:")]
    assert field(recap, "Streak leaders") == "Bob 4 in a row, Ann 3 in a row"


async def test_quiz_me_says_why_answers_to_quiz_now_do_not_add_to_the_streak(
    quiz: QuizHarness,
) -> None:
    quiz.clock.set(MONDAY - timedelta(hours=1))
    await quiz.command("schedule daily 09:00 UTC")
    await scheduled_round(quiz, MONDAY)
    await quiz.answer("ann", "a scheduled answer")
    for _ in range(2):
        await quiz.command("now")
        await quiz.answer("ann", "an extra answer")
    me = (await quiz.command("me", by="ann")).card
    assert field(me, "Answers") == "3"
    assert field(me, "Streak") == (
        "1 (best 1): it counts scheduled questions answered in a row; your 2 answers to"
        " questions posted with `/quiz now` are extra practice and neither add to it nor"
        " break it"
    )


async def test_quiz_me_says_a_channel_without_a_schedule_keeps_no_streak(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    await quiz.answer("ann", "an answer")
    me = (await quiz.command("me", by="ann")).card
    assert field(me, "Streak") == (
        "0: this channel has no schedule, and a streak counts scheduled questions answered in a row"
    )


async def test_quiz_me_shows_a_plain_streak_when_every_answer_counts(quiz: QuizHarness) -> None:
    quiz.clock.set(MONDAY - timedelta(hours=1))
    await quiz.command("schedule daily 09:00 UTC")
    await scheduled_round(quiz, MONDAY)
    await quiz.answer("ann", "an answer")
    assert field((await quiz.command("me", by="ann")).card, "Streak") == "1 (best 1)"
