"""The practice policy on hand-made card states, and choose_practice through the service."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.grades import Grade
from bot.memory_model import MemoryCard, recall, recall_gain, review
from bot.practice_policy import ExpectedRecallGain, PracticeRequest
from tests.harness import QuizHarness

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
POLICY = ExpectedRecallGain()


def graded(question_id: int, grade: Grade, days_ago: float) -> MemoryCard:
    return review(question_id, None, grade, NOW - timedelta(days=days_ago))


def choose(cards: dict[int, MemoryCard], candidates: list[int], target_days: float) -> int | None:
    request = PracticeRequest(1, candidates, cards, NOW, NOW + timedelta(days=target_days))
    return POLICY.choose(request)


def test_a_never_seen_question_beats_a_due_review_near_and_far() -> None:
    due = graded(1, Grade.GOOD, days_ago=10)
    assert due.due <= NOW  # "due first" would take it
    for target_days in (3, 90):
        assert choose({1: due}, [1, 2], target_days) == 2
        assert recall_gain(2, None, NOW, NOW + timedelta(days=target_days)) > recall_gain(
            1, due, NOW, NOW + timedelta(days=target_days)
        )


def test_a_near_target_favours_the_shaky_card_a_far_one_the_card_worth_consolidating() -> None:
    shaky = graded(1, Grade.MISSED, days_ago=2)  # low stability: will it hold tomorrow?
    older = graded(2, Grade.GOOD, days_ago=10)
    cards = {1: shaky, 2: older}
    assert choose(cards, [1, 2], target_days=1) == 1
    assert choose(cards, [1, 2], target_days=90) == 2


def test_the_gain_is_the_forecast_with_practice_minus_without() -> None:
    card = graded(1, Grade.PARTLY, days_ago=5)
    target = NOW + timedelta(days=30)
    now_recall = recall(card, NOW)
    with_practice = now_recall * recall(review(1, card, Grade.GOOD, NOW), target) + (
        1 - now_recall
    ) * recall(review(1, card, Grade.MISSED, NOW), target)
    assert abs(recall_gain(1, card, NOW, target) - (with_practice - recall(card, target))) < 1e-12


def test_no_candidates_no_choice() -> None:
    assert choose({}, [], target_days=30) is None


async def test_choose_practice_skips_what_was_graded_today_and_applies_the_topic(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now gpu")
    await quiz.react("alice", "💡")
    await quiz.command("grade good", by="alice")
    graded_id = (await quiz.round()).question_id
    learning = quiz.service.engine.learning
    member_id = await quiz.service.store.member_id(quiz.member("alice"))
    topics = quiz.service.engine.question_topics()
    gpu = sorted(q for q, t in topics.items() if t == "gpu")
    now = quiz.clock.now()
    chosen = await learning.choose_practice(member_id, now, topic="gpu")
    assert chosen in gpu and chosen != graded_id
    await learning.grade(member_id, chosen, Grade.MISSED, now)
    assert await learning.choose_practice(member_id, now, topic="gpu") is None  # both graded today
    tomorrow = await learning.choose_practice(member_id, now + timedelta(days=1), topic="gpu")
    assert tomorrow in gpu
    other = await learning.choose_practice(member_id, now, topics=("networking",))
    assert other is not None and topics[other] == "networking"


async def test_the_goal_changes_the_choice(quiz: QuizHarness) -> None:
    await quiz.command("now")
    learning = quiz.service.engine.learning
    member_id = await quiz.service.store.member_id(quiz.member("alice"))
    topics = quiz.service.engine.question_topics()
    gpu_1, gpu_2 = sorted(q for q, t in topics.items() if t == "gpu")
    start = quiz.clock.now()
    await learning.grade(member_id, gpu_1, Grade.MISSED, start - timedelta(days=2))
    await learning.grade(member_id, gpu_2, Grade.GOOD, start - timedelta(days=10))
    await learning.set_goal(member_id, (start + timedelta(days=1)).date())
    assert await learning.choose_practice(member_id, start, topic="gpu") == gpu_1
    await learning.set_goal(member_id, (start + timedelta(days=90)).date())
    assert await learning.choose_practice(member_id, start, topic="gpu") == gpu_2
