"""The fit's acceptance rule: fitted parameters are kept only when they forecast the
held-out (latest) reviews better than the parameters in use; a short log, a failing
optimizer or a wrong-sized answer keep the parameters in use."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Rating

from bot.learning.parameter_fit import (
    DEFAULTS,
    MIN_REVIEWS,
    Item,
    Review,
    cut_off,
    fit,
    histories,
    log_loss,
    rust_optimizer,
    scheduler,
    training_items,
)

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
# a team that forgets much faster than FSRS's defaults assume, and grows stability slower
FORGETFUL = (0.05, 0.2, 0.5, 2.0, *DEFAULTS[4:8], 0.8, DEFAULTS[9], 1.5, *DEFAULTS[11:])


def simulated_log(
    true: Sequence[float], members: int = 12, questions: int = 50, seed: int = 3
) -> list[Review]:
    """Each member reviews each question six times at random gaps, recalling it as the
    ``true`` parameters forecast (on first sight: 30%)."""
    model = scheduler(true)
    rng = random.Random(seed)
    log = []
    for member in range(members):
        for question in range(questions):
            card = Card(card_id=question, due=T0)
            at = T0 + timedelta(days=rng.randrange(30))
            for review in range(6):
                chance = 0.3 if review == 0 else model.get_card_retrievability(card, at)
                rating = 3 if rng.random() < chance else 1
                log.append(Review((member, question), rating, at))
                card, _ = model.review_card(card, Rating(rating), at)
                at += timedelta(days=rng.randrange(1, 15))
    return log


def answering(parameters: Sequence[float]) -> list[list[Item]]:
    """An optimizer that gives these parameters, remembering what it was asked to fit."""
    seen: list[list[Item]] = []

    def optimize(items: Sequence[Item]) -> Sequence[float]:
        seen.append(list(items))
        return parameters

    optimize.seen = seen  # type: ignore[attr-defined]
    return optimize  # type: ignore[return-value]


def test_a_log_the_defaults_fit_better_keeps_the_defaults() -> None:
    log = simulated_log(DEFAULTS)
    outcome = fit(log, DEFAULTS, answering(FORGETFUL))  # type: ignore[arg-type]
    assert outcome.loss_before is not None and outcome.loss_fitted is not None
    assert outcome.loss_fitted > outcome.loss_before
    assert not outcome.kept
    assert outcome.parameters == FORGETFUL  # stored with its figures all the same


def test_parameters_that_forecast_the_held_out_reviews_better_are_kept() -> None:
    log = simulated_log(FORGETFUL)
    outcome = fit(log, DEFAULTS, answering(FORGETFUL))  # type: ignore[arg-type]
    assert outcome.kept
    assert outcome.loss_fitted is not None and outcome.loss_before is not None
    assert outcome.loss_fitted < outcome.loss_before - 0.01
    assert outcome.held_out == pytest.approx(0.2 * len(log) * 5 / 6, rel=0.02)


def test_the_fit_sees_only_reviews_before_the_held_out_ones() -> None:
    log = simulated_log(DEFAULTS, members=4)
    cards = histories(log)
    since = cut_off(cards)
    optimize = answering(DEFAULTS)
    fit(log, DEFAULTS, optimize)  # type: ignore[arg-type]
    [items] = optimize.seen  # type: ignore[attr-defined]
    assert items == training_items(cards, since)
    before = sum(1 for r in log if r.at < since)
    firsts = sum(1 for reviews in cards.values() if reviews[0].at < since)
    assert len(items) == before - firsts  # one item per forecastable review before it
    _, held_out = log_loss(cards, DEFAULTS, since)
    assert held_out > 0


def test_a_short_log_is_not_fitted() -> None:
    log = simulated_log(DEFAULTS, members=1, questions=60)  # 300 forecastable reviews
    outcome = fit(log, DEFAULTS, answering(FORGETFUL))  # type: ignore[arg-type]
    assert outcome.parameters is None and not outcome.kept
    assert outcome.error == f"300 reviews, fewer than {MIN_REVIEWS}"


def test_a_failing_optimizer_keeps_the_parameters_in_use() -> None:
    def broken(items: Sequence[Item]) -> Sequence[float]:
        raise RuntimeError("diverged")

    log = simulated_log(DEFAULTS, members=4)
    outcome = fit(log, DEFAULTS, broken)
    assert not outcome.kept and outcome.parameters is None
    assert outcome.error == "RuntimeError: diverged"
    short = fit(log, DEFAULTS, answering((1.0, 2.0)))  # type: ignore[arg-type]
    assert not short.kept and short.error is not None and "2 parameters" in short.error


def test_the_rust_optimizer_lowers_the_loss_of_a_team_unlike_the_defaults() -> None:
    pytest.importorskip("fsrs_rs_python")
    optimizer = rust_optimizer()
    assert optimizer is not None
    outcome = fit(simulated_log(FORGETFUL), DEFAULTS, optimizer)
    assert outcome.parameters is not None and len(outcome.parameters) == 21
    assert outcome.kept
    assert outcome.loss_fitted is not None and outcome.loss_before is not None
    assert outcome.loss_fitted < outcome.loss_before
    # the locked fsrs scheduler takes the 21 parameters fsrs-rs-python gives
    assert scheduler(outcome.parameters).parameters == outcome.parameters
