"""The practice choice as it was computed before it was made fast: the member's whole grade
log read for the pace, and every question's forecast through the recursive arithmetic of
``bot.learning._practice_forecast`` as it stood then. Kept as the reference the fast path must agree
with exactly (tests/storage/test_practice_choice_is_unchanged.py) and as the "before" of
bench/practice_choice.py."""

from __future__ import annotations

import math
from datetime import datetime

from fsrs import Rating

from bot.bank.rotation import eligible_questions
from bot.learning import memory_model
from bot.learning._practice_forecast import DAY, MAX_PLANNED_REVIEWS
from bot.learning.memory_model import PRIOR_RECALL, SCHEDULER, MemoryCard
from bot.learning.practice_policy import NO_GOAL_HORIZONS, PracticeRequest
from bot.learning.service import ONE_REVIEW_A_DAY, PACE_MINIMUM, PACE_WINDOW, LearningService

State = tuple[float, float, float] | None


def state_of(card: MemoryCard | None, now: datetime) -> State:
    if card is None:
        return None
    return (card.stability, card.difficulty, (card.last_review - now) / DAY)


def recall_at(state: State, at: float, prior: float = PRIOR_RECALL) -> float:
    if state is None:
        return prior
    stability, _, last = state
    elapsed = max(0, math.floor(at - last))
    return float((1 + SCHEDULER._FACTOR * elapsed / stability) ** SCHEDULER._DECAY)


def review_at(state: State, rating: Rating, at: float) -> State:
    if state is None:
        return (
            SCHEDULER._initial_stability(rating=rating),
            SCHEDULER._initial_difficulty(rating=rating, clamp=True),
            at,
        )
    stability, difficulty, last = state
    elapsed = math.floor(at - last)
    if elapsed < 1:
        stability = SCHEDULER._short_term_stability(stability=stability, rating=rating)
    else:
        stability = SCHEDULER._next_stability(
            difficulty=difficulty,
            stability=stability,
            retrievability=recall_at(state, at),
            rating=rating,
        )
    return (stability, SCHEDULER._next_difficulty(difficulty=difficulty, rating=rating), at)


def _outcomes(state: State, at: float, prior: float) -> tuple[tuple[float, State], ...]:
    chance = recall_at(state, at, prior)
    return (
        (chance, review_at(state, Rating.Good, at)),
        (1 - chance, review_at(state, Rating.Again, at)),
    )


def planned_recall(state: State, target: float, reviews: int, prior: float) -> float:
    times = [target * n / (reviews + 1) for n in range(1, reviews + 1)]

    def expected(state: State, step: int) -> float:
        if step == len(times):
            return recall_at(state, target, prior)
        return sum(
            chance * expected(after, step + 1)
            for chance, after in _outcomes(state, times[step], prior)
        )

    return expected(state, 0)


def share_recall(state: State, target: float, share: float, prior: float) -> float:
    share = min(max(share, 0.0), float(MAX_PLANNED_REVIEWS))
    fewer = int(share)
    value = planned_recall(state, target, fewer, prior)
    weight = share - fewer
    if weight > 0:
        more = planned_recall(state, target, fewer + 1, prior)
        value = (1 - weight) * value + weight * more
    return value


def practice_gain(
    card: MemoryCard | None,
    now: datetime,
    target: datetime,
    share: float,
    prior: float = PRIOR_RECALL,
) -> float:
    return practice_gain_in(card, now, (target - now) / DAY, share, prior)


def practice_gain_in(
    card: MemoryCard | None, now: datetime, horizon: float, share: float, prior: float
) -> float:
    """:func:`practice_gain` for a target ``horizon`` days from ``now``."""
    state = state_of(card, now)
    after = sum(
        chance * share_recall(reviewed, horizon, share, prior)
        for chance, reviewed in _outcomes(state, 0.0, prior)
    )
    return after - share_recall(state, horizon, share, prior)


def choose(request: PracticeRequest) -> int | None:
    """``PlannedRecallGain.choose`` through the recursive forecast: each question's gain
    is the mean over the request's horizons, a never-graded one's at its own prior."""
    if not request.candidates:
        return None
    horizons = request.horizons(NO_GOAL_HORIZONS)
    best: tuple[float, int] | None = None
    for question_id in request.candidates:
        card = request.cards.get(question_id)
        prior = request.prior(question_id)
        gain = sum(
            practice_gain_in(
                card,
                request.now,
                days,
                request.reviews_per_day * days / len(request.candidates),
                prior,
            )
            for days in horizons
        ) / len(horizons)
        if best is None or gain > best[0]:
            best = (gain, question_id)
    return None if best is None else best[1]


async def pace(learning: LearningService, member_id: int, at: datetime) -> float:
    """The pace as it was: from the member's whole grade log."""
    log = await learning.store.grade_log(member_id)
    graded = [when for _, _, when, replaced in log if not replaced and when <= at]
    if not graded:
        return 0.0
    since = max(at - PACE_WINDOW, min(graded))
    recent = sum(1 for when in graded if when >= since)
    return recent / (max(at - since, PACE_MINIMUM) / ONE_REVIEW_A_DAY)


async def choose_practice(
    learning: LearningService, member_id: int, at: datetime, *, topic: str | None = None
) -> int | None:
    """``LearningService.choose_practice`` as it was, with the shipped policy."""
    cards = await learning.store.member_cards(member_id)
    eligible = eligible_questions(learning._question_topics(), None, topic)
    candidates = [
        q for q in eligible if not memory_model.reviewed_within(cards.get(q), at, ONE_REVIEW_A_DAY)
    ]
    topics = learning._question_topics()
    unseen = {q: topics[q] for q in eligible if q not in cards}
    request = PracticeRequest(
        member_id,
        candidates,
        cards,
        at,
        await learning.goal_target(member_id, at),
        await pace(learning, member_id, at),
        (await learning.first_sights(member_id, at)).priors(unseen),
    )
    return choose(request)
