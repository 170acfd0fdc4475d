"""The practice forecast's arithmetic on plain numbers is the fsrs package's: every review
and recall it computes equals what ``Scheduler.review_card`` and
``get_card_retrievability`` give for the same card, grade and time."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Rating

from bot.kernel.grades import Grade
from bot.learning import memory_model
from bot.learning._practice_forecast import (
    DAY,
    DEFAULT_CURVE,
    Forecast,
    State,
    _stability_again,
    _stability_good,
    curve_of,
    recall_at,
    review_at,
    state_of,
)
from tests import practice_reference as reference
from tests.core.learning.test_parameter_fit import FORGETFUL

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("first", list(Grade))
@pytest.mark.parametrize("second", list(Grade))
@pytest.mark.parametrize("days_later", [0.2, 1.0, 3.5, 17.0, 120.0])
def test_reviews_and_recall_match_the_package(
    first: Grade, second: Grade, days_later: float
) -> None:
    card = memory_model.review(1, None, first, NOW)
    state = review_at(None, first.rating, 0.0)
    assert state == state_of(card, NOW)
    at = NOW + timedelta(days=days_later)
    offset = (at - NOW) / DAY
    assert recall_at(state, offset) == pytest.approx(memory_model.recall(card, at), abs=1e-12)
    again = memory_model.review(1, card, second, at)
    assert review_at(state, second.rating, offset) == pytest.approx(state_of(again, NOW))


def test_a_never_graded_question_is_recalled_with_the_prior() -> None:
    assert recall_at(None, 30.0) == memory_model.PRIOR_RECALL
    assert recall_at(None, 30.0, prior=0.3) == 0.3


def random_state(rng: random.Random) -> State:
    """A card state as the forecast sees it: some reviewed today, some never, some clamped."""
    if rng.random() < 0.1:
        return None
    stability = rng.choice([0.001, rng.uniform(0.01, 2.0), rng.uniform(2.0, 400.0)])
    difficulty = rng.choice([1.0, 10.0, rng.uniform(1.0, 10.0)])
    last = -rng.choice([rng.uniform(0.0, 1.0), rng.uniform(1.0, 400.0), float(rng.randrange(5))])
    return (stability, difficulty, last)


def test_the_forecast_is_the_method_calling_one_bit_for_bit() -> None:
    """The forecast's written-out FSRS arithmetic gives the very floats the scheduler's
    methods gave (the forecast as it was, kept in tests/practice_reference.py), so every
    choice stays the same: targets from hours to a year, plans of 0 to 4 reviews."""
    rng = random.Random(3)
    for _ in range(1000):
        card = card_of(random_state(rng))
        horizon = rng.choice([rng.uniform(0.0, 2.0), rng.uniform(2.0, 30.0), rng.uniform(30, 365)])
        share = rng.choice([0.0, 1.0, 3.0, 7.5, rng.uniform(0.0, 3.5)])
        prior = rng.choice([memory_model.PRIOR_RECALL, rng.random()])
        forecast = Forecast((NOW + horizon * DAY - NOW) / DAY, share, prior)
        target = NOW + horizon * DAY
        assert forecast.gain(state_of(card, NOW)) == reference.practice_gain(
            card, NOW, target, share, prior
        ), (card, horizon, share, prior)


def card_of(state: State) -> memory_model.MemoryCard | None:
    if state is None:
        return None
    stability, difficulty, last = state
    return memory_model.MemoryCard(1, stability, difficulty, NOW, NOW + last * DAY, 1)


@pytest.mark.parametrize("rating", [Rating.Good, Rating.Again])
def test_the_written_out_reviews_are_the_schedulers(rating: Rating) -> None:
    rng = random.Random(int(rating))
    for _ in range(2000):
        state = random_state(rng) or (1.0, 5.0, -2.0)
        at = rng.choice([0.0, rng.uniform(0.0, 1.5), rng.uniform(1.5, 200.0)])
        stability, difficulty, last = state
        recall = recall_at(state, at)
        same_day = math.floor(at - last) < 1
        written_out = _stability_good if rating is Rating.Good else _stability_again
        after = review_at(state, rating, at)
        assert after is not None
        assert written_out(stability, difficulty, recall, same_day) == after[0]


def test_a_fitted_curves_written_out_reviews_are_its_schedulers() -> None:
    curve = curve_of(FORGETFUL)
    rng = random.Random(7)
    for _ in range(500):
        state = random_state(rng) or (1.0, 5.0, -2.0)
        at = rng.choice([0.0, rng.uniform(0.0, 1.5), rng.uniform(1.5, 200.0)])
        stability, difficulty, last = state
        recall = curve.recall_at(state, at)
        same_day = math.floor(at - last) < 1
        good = curve.review_at(state, Rating.Good, at)
        again = curve.review_at(state, Rating.Again, at)
        assert good is not None and again is not None
        assert curve.stability_good(stability, difficulty, recall, same_day) == good[0]
        assert curve.stability_again(stability, difficulty, recall, same_day) == again[0]
    assert curve.first_stability_good != DEFAULT_CURVE.first_stability_good
