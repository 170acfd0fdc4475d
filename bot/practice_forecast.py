"""What practising a question now is worth, counting the practice still to come.

A question's value is its expected recall on the target date if it gets its share of the
member's remaining practice: that many more reviews, evenly spread between now and the
target, each recalled with the model's probability (and then graded good) or missed.
Practising it now is worth its value after this review (both outcomes weighted by their
chances) less its value without it. So a first exposure is worth what it makes the later
reviews worth, not only its own forecast, and a question that will come round again anyway
gains less from a review now than one whose last review this may be. With no practice to
come this is :func:`bot.memory_model.recall_gain`.

One choice makes thousands of hypothetical reviews, too many for the ``fsrs`` package's
``review_card`` (it copies a card and checks datetimes each time): the arithmetic here calls
the package scheduler's own stability, difficulty and retrievability functions on plain
numbers instead. ``tests/core/test_practice_forecast.py`` checks it against ``review_card``.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from fsrs import Rating

from bot.memory_model import PRIOR_RECALL, SCHEDULER, MemoryCard

MAX_PLANNED_REVIEWS = 3  # a longer plan costs twice as much per review and changes little
DAY = timedelta(days=1)

# (stability, difficulty, last review) with times in days since "now"; None: never graded
State = tuple[float, float, float] | None


def state_of(card: MemoryCard | None, now: datetime) -> State:
    if card is None:
        return None
    return (card.stability, card.difficulty, (card.last_review - now) / DAY)


def recall_at(state: State, at: float, prior: float = PRIOR_RECALL) -> float:
    """FSRS retrievability ``at`` days from now (whole days elapsed, as the package counts)."""
    if state is None:
        return prior
    stability, _, last = state
    elapsed = max(0, math.floor(at - last))
    return float((1 + SCHEDULER._FACTOR * elapsed / stability) ** SCHEDULER._DECAY)


def review_at(state: State, rating: Rating, at: float) -> State:
    """The state after a review graded ``rating`` ``at`` days from now, as ``review_card``
    computes it with learning steps off."""
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
    """The expected recall at ``target`` after ``reviews`` more reviews, evenly spread over
    the days from now to the target."""
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
    """:func:`planned_recall` for a fractional number of reviews (at most
    ``MAX_PLANNED_REVIEWS``): the two whole numbers around it, weighted."""
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
    """How much practising the question at ``now`` raises its expected recall at ``target``,
    when it will also get ``share`` reviews of the practice still to come."""
    state = state_of(card, now)
    horizon = (target - now) / DAY
    after = sum(
        chance * share_recall(reviewed, horizon, share, prior)
        for chance, reviewed in _outcomes(state, 0.0, prior)
    )
    return after - share_recall(state, horizon, share, prior)
