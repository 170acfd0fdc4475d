"""The practice policy on hand-made card states, and choose_practice through the service."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.kernel.grades import Grade
from bot.learning._practice_forecast import practice_gain
from bot.learning.memory_model import MemoryCard, MemoryModel, recall, recall_gain, review
from bot.learning.practice_policy import (
    NO_GOAL_HORIZONS,
    ExpectedRecallGain,
    PlannedRecallGain,
    PracticeRequest,
)
from tests.core.learning.test_parameter_fit import FORGETFUL
from tests.harness import QuizHarness

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
POLICY = PlannedRecallGain()


def graded(question_id: int, grade: Grade, days_ago: float) -> MemoryCard:
    return review(question_id, None, grade, NOW - timedelta(days=days_ago))


def choose(
    cards: dict[int, MemoryCard],
    candidates: list[int],
    target_days: float,
    reviews_per_day: float = 0.0,
) -> int | None:
    request = PracticeRequest(
        1, candidates, cards, NOW, NOW + timedelta(days=target_days), reviews_per_day
    )
    return POLICY.choose(request)


def test_a_never_seen_question_beats_a_due_review_near_and_far() -> None:
    due = graded(1, Grade.GOOD, days_ago=10)
    assert due.due <= NOW  # "due first" would take it
    for target_days in (3, 90):
        for pace in (0.0, 1.0):  # with no practice to come, and with a review a day
            assert choose({1: due}, [1, 2], target_days, pace) == 2
        assert recall_gain(2, None, NOW, NOW + timedelta(days=target_days)) > recall_gain(
            1, due, NOW, NOW + timedelta(days=target_days)
        )


def test_a_near_target_favours_the_shaky_card_a_far_one_the_card_worth_consolidating() -> None:
    shaky = graded(1, Grade.MISSED, days_ago=2)  # low stability: will it hold tomorrow?
    older = graded(2, Grade.GOOD, days_ago=10)
    cards = {1: shaky, 2: older}
    assert choose(cards, [1, 2], target_days=1) == 1
    assert choose(cards, [1, 2], target_days=90) == 2


def test_with_practice_to_come_a_far_target_favours_the_card_just_missed() -> None:
    missed = graded(1, Grade.MISSED, days_ago=2)
    good = graded(2, Grade.GOOD, days_ago=20)
    cards = {1: missed, 2: good}
    # Tomorrow: the card graded good 20 days ago is the one about to slip.
    assert choose(cards, [1, 2], target_days=1, reviews_per_day=0.5) == 2
    # In three months, with a review every other day to come, both will come round
    # again; a review now is worth most on the card just missed, as it makes its later
    # reviews stick. Counting on no later practice, the far target says the opposite.
    assert choose(cards, [1, 2], target_days=90, reviews_per_day=0.5) == 1
    assert choose(cards, [1, 2], target_days=90, reviews_per_day=0.0) == 2
    assert (
        ExpectedRecallGain().choose(
            PracticeRequest(1, [1, 2], cards, NOW, NOW + timedelta(days=90))
        )
        == 2
    )


def test_with_no_practice_to_come_the_gain_is_the_one_review_gain() -> None:
    card = graded(1, Grade.PARTLY, days_ago=5)
    for question, seen in ((1, card), (2, None)):
        for target_days in (3, 30, 90):
            target = NOW + timedelta(days=target_days)
            assert practice_gain(seen, NOW, target, share=0.0) == pytest.approx(
                recall_gain(question, seen, NOW, target), abs=1e-12
            )


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
    learning = quiz.service.learning
    member_id = await quiz.service.store.members.member_id(quiz.member("alice"))
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
    learning = quiz.service.learning
    member_id = await quiz.service.store.members.member_id(quiz.member("alice"))
    topics = quiz.service.engine.question_topics()
    gpu_1, gpu_2 = sorted(q for q, t in topics.items() if t == "gpu")
    start = quiz.clock.now()
    await learning.grade(member_id, gpu_1, Grade.MISSED, start - timedelta(days=2))
    await learning.grade(member_id, gpu_2, Grade.GOOD, start - timedelta(days=20))
    assert await learning.pace(member_id, start) == pytest.approx(2 / 20)
    await learning.set_goal(member_id, (start + timedelta(days=3)).date())
    assert await learning.choose_practice(member_id, start, topic="gpu") == gpu_2
    await learning.set_goal(member_id, (start + timedelta(days=90)).date())
    assert await learning.choose_practice(member_id, start, topic="gpu") == gpu_1


class ThreadRecordingPolicy:
    """The shipped policy, noting which thread ran it."""

    def __init__(self) -> None:
        self.threads: list[int] = []

    def choose(self, request: PracticeRequest) -> int | None:
        self.threads.append(threading.get_ident())
        return POLICY.choose(request)


async def test_the_forecast_runs_off_the_event_loop(quiz: QuizHarness) -> None:
    """A choice forecasts every question (tens of milliseconds with hundreds of them):
    on the event loop's thread every other channel's events would wait for it."""
    await quiz.command("now")
    learning = quiz.service.learning
    recording = ThreadRecordingPolicy()
    learning.policy = recording
    member_id = await quiz.service.store.members.member_id(quiz.member("alice"))
    chosen = await learning.choose_practice(member_id, quiz.clock.now())
    assert chosen is not None
    assert len(recording.threads) == 1
    assert recording.threads[0] != threading.get_ident()


def no_goal(cards: dict[int, MemoryCard], candidates: list[int], **policy: object) -> int | None:
    request = PracticeRequest(1, candidates, cards, NOW, None)
    return PlannedRecallGain(**policy).choose(request)  # type: ignore[arg-type]


def test_without_a_goal_the_policy_plans_for_its_own_horizons() -> None:
    request = PracticeRequest(1, [1], {}, NOW, None)
    assert request.horizons(NO_GOAL_HORIZONS) == list(NO_GOAL_HORIZONS)
    assert PracticeRequest(1, [1], {}, NOW, NOW + timedelta(days=12)).horizons((30,)) == [12]
    shaky = graded(1, Grade.MISSED, days_ago=2)
    older = graded(2, Grade.GOOD, days_ago=10)
    cards = {1: shaky, 2: older}
    # the same choices as the near and far goals above, from the horizons alone
    assert no_goal(cards, [1, 2], no_goal_horizons=(1.0,)) == 1
    assert no_goal(cards, [1, 2], no_goal_horizons=(90.0,)) == 2
    # a goal wins over the horizons
    goal = PracticeRequest(1, [1, 2], cards, NOW, NOW + timedelta(days=1))
    assert PlannedRecallGain((90.0,)).choose(goal) == 1


def test_without_a_goal_the_gain_is_the_mean_over_the_horizons() -> None:
    cards = {1: graded(1, Grade.PARTLY, days_ago=6), 2: graded(2, Grade.GOOD, days_ago=25)}
    request = PracticeRequest(1, [1, 2, 3], cards, NOW, None, 0.0)

    def mean_gain(question: int) -> float:
        return sum(
            recall_gain(question, cards.get(question), NOW, NOW + timedelta(days=h))
            for h in NO_GOAL_HORIZONS
        ) / len(NO_GOAL_HORIZONS)

    best = max([1, 2, 3], key=mean_gain)
    assert POLICY.choose(request) == best
    assert ExpectedRecallGain().choose(request) == best


def test_the_learned_prior_decides_whether_a_new_question_is_worth_introducing() -> None:
    due = graded(1, Grade.GOOD, days_ago=10)
    target = NOW + timedelta(days=90)
    for prior, chosen in ((0.05, 2), (0.9, 1)):
        request = PracticeRequest(1, [1, 2], {1: due}, NOW, target, 0.0, {2: prior})
        assert POLICY.choose(request) == chosen, prior
    # each never-graded question at its own prior: the less known one first
    request = PracticeRequest(1, [2, 3], {}, NOW, target, 0.0, {2: 0.5, 3: 0.1})
    assert POLICY.choose(request) == 3


class RequestRecordingPolicy:
    def __init__(self) -> None:
        self.requests: list[PracticeRequest] = []

    def choose(self, request: PracticeRequest) -> int | None:
        self.requests.append(request)
        return POLICY.choose(request)


async def test_the_service_passes_no_target_without_a_goal_and_the_learned_priors(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    learning = quiz.service.learning
    recording = RequestRecordingPolicy()
    learning.policy = recording
    member_id = await quiz.service.store.members.member_id(quiz.member("alice"))
    topics = quiz.service.engine.question_topics()
    questions = sorted(topics)
    now = quiz.clock.now()
    for n, question in enumerate(questions[:3]):  # missed on first sight, all three
        await learning.grade(member_id, question, Grade.MISSED, now - timedelta(days=5, hours=n))
    await learning.choose_practice(member_id, now)
    request = recording.requests[-1]
    assert request.target is None
    unseen = [q for q in request.candidates if q not in request.cards]
    assert unseen and set(request.priors) >= set(unseen)
    learned = await learning.prior_recall(member_id, now, topics[unseen[0]])
    assert request.priors[unseen[0]] == learned < 0.2
    await learning.set_goal(member_id, (now + timedelta(days=40)).date())
    await learning.choose_practice(member_id, now)
    assert recording.requests[-1].target is not None


def test_with_a_kept_fit_the_gain_is_the_fitted_models_one_review_gain() -> None:
    fitted = MemoryModel(FORGETFUL)
    card = fitted.review(1, None, Grade.PARTLY, NOW - timedelta(days=5))
    for question, seen in ((1, card), (2, None)):
        for target_days in (3, 30, 90):
            target = NOW + timedelta(days=target_days)
            gain = practice_gain(seen, NOW, target, share=0.0, model=fitted)
            assert gain == pytest.approx(fitted.recall_gain(question, seen, NOW, target), abs=1e-12)
            assert gain != pytest.approx(recall_gain(question, seen, NOW, target), abs=1e-6)


def test_the_policy_weighs_with_the_requests_model() -> None:
    """The same cards, two weeks ahead at half a review a day: the team's forgetful fit
    practises the question never seen, FSRS's defaults the one just missed."""
    fitted = MemoryModel(FORGETFUL)
    cards = {
        1: fitted.review(1, None, Grade.MISSED, NOW - timedelta(days=2)),
        2: fitted.review(2, None, Grade.GOOD, NOW - timedelta(days=9)),
        3: fitted.review(3, None, Grade.PARTLY, NOW - timedelta(days=4)),
    }
    request = PracticeRequest(1, [1, 2, 3, 4], cards, NOW, NOW + timedelta(days=14), 0.5)
    assert POLICY.choose(request) == 1
    assert POLICY.choose(replace(request, model=fitted)) == 4
