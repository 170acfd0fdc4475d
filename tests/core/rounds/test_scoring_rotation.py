"""Rotation, scoring periods, streaks and leaderboards."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from bot.bank.rotation import eligible_questions, pick_question
from bot.kernel.scoring import Period, Streak, period_start, streak
from tests.fakes import FakePlatform
from tests.harness import QuizHarness


def test_rotation_never_repeats_until_all_asked_then_recycles() -> None:
    rng = random.Random(3)
    eligible = [1, 2, 3, 4]
    counts: dict[int, int] = {}
    asked = []
    for _ in range(8):
        q = pick_question(eligible, counts, rng)
        assert q is not None
        counts[q] = counts.get(q, 0) + 1
        asked.append(q)
    assert sorted(asked[:4]) == [1, 2, 3, 4]
    assert sorted(asked[4:]) == [1, 2, 3, 4]


def test_rotation_is_deterministic_for_a_seed() -> None:
    def run(seed: int) -> list[int]:
        rng, counts, picks = random.Random(seed), dict[int, int](), list[int]()
        for _ in range(6):
            q = pick_question([10, 20, 30], counts, rng)
            assert q is not None
            counts[q] = counts.get(q, 0) + 1
            picks.append(q)
        return picks

    assert run(5) == run(5)


def test_rotation_filters_by_topic_and_reports_nothing_eligible() -> None:
    topics = {1: "gpu", 2: "gpu", 3: "memory"}
    assert eligible_questions(topics, None) == [1, 2, 3]
    assert eligible_questions(topics, ("memory",)) == [3]
    assert eligible_questions(topics, ("gpu",), topic="memory") == [3]
    assert eligible_questions(topics, ("cooking",)) == []
    assert pick_question([], {}, random.Random(1)) is None


def test_period_boundaries_follow_the_channel_timezone() -> None:
    # Sunday 23:30 UTC is already Monday 00:30 in Berlin (winter, UTC+1).
    now = datetime(2026, 12, 6, 23, 30, tzinfo=UTC)
    assert period_start(Period.WEEK, now, "Europe/Berlin") == datetime(
        2026, 12, 6, 23, 0, tzinfo=UTC
    )
    assert period_start(Period.WEEK, now, "UTC") == datetime(2026, 11, 30, 0, 0, tzinfo=UTC)
    assert period_start(Period.MONTH, now, "America/New_York") == datetime(
        2026, 12, 1, 5, 0, tzinfo=UTC
    )
    assert period_start(Period.ALL, now, "UTC") is None


def test_streaks() -> None:
    rounds = [1, 2, 3, 4, 5, 6]
    assert streak(rounds, frozenset({1, 2, 4, 5, 6}), None) == Streak(current=3, best=3)
    assert streak(rounds, frozenset({1, 2, 3, 5}), None) == Streak(current=0, best=3)
    # the open round not yet answered does not break the streak
    assert streak(rounds, frozenset({4, 5}), open_round_id=6) == Streak(current=2, best=2)
    assert streak([], frozenset(), None) == Streak(0, 0)


async def test_leaderboard_scores_ties_and_periods(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await quiz.command("now")
    await quiz.answer("alice", "early")  # 15
    await quiz.answer("bob", "early too")  # 15
    await quiz.react("carol", "💡")
    bob_answer = await quiz.answer("carol", "late")  # 10
    await quiz.react("alice", "👍", message_id=bob_answer)  # carol 11
    board = await quiz.command("leaderboard", by="alice")
    assert board.card.body.splitlines() == [
        "1. Alice — 15 pts (1 answer)",
        "2. Bob — 15 pts (1 answer)",
        "3. Carol — 11 pts (1 answer)",
    ]
    assert not board.public
    # next week: the weekly board starts empty, the all-time one keeps everything
    quiz.clock.advance(days=7)
    assert "No answers yet" in (await quiz.command("leaderboard week", by="bob")).card.body
    everyone = await quiz.command("leaderboard all public", by="bob")
    assert everyone.public and everyone.card.body.startswith("1. Alice — 15 pts")


async def test_me_shows_points_rank_streaks_and_topics(quiz: QuizHarness) -> None:
    channel_id = None
    for day in range(3):
        await quiz.command("schedule daily 09:00")
        channel = await quiz.service.engine.channel(quiz.channel)
        assert channel is not None
        channel_id = channel.id
        slot = datetime(2026, 12, 1 + day, 9, 0, tzinfo=UTC)
        quiz.clock.set(slot + timedelta(minutes=1))
        await quiz.service.post_slot(channel_id, slot)
        await quiz.service.settle()
        if day != 1:
            await quiz.answer("alice", f"answer {day}")
    me = (await quiz.command("me", by="alice")).card.plain_text()
    assert "Points: 30" in me
    assert "Rank: #1" in me
    assert "Streak: 1 (best 1)" in me
    assert "Answers: 2" in me
    nobody = (await quiz.command("me", by="zed")).card.plain_text()
    assert "Points: 0" in nobody and "Rank: —" in nobody


async def test_same_slot_is_posted_once(quiz: QuizHarness, platform: FakePlatform) -> None:
    await quiz.command("schedule daily 09:00")
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    slot = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    for _ in range(3):
        await quiz.service.post_slot(channel.id, slot)
    await quiz.service.settle()
    assert len(platform.in_channel()) == 1
