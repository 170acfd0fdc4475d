"""FSRS parameters fitted to a team's review log, kept only when they forecast it better.

The log is split in time (as Anki does): the reviews before a cut-off are fitted on, the
last :data:`HELD_OUT_SHARE` of the reviews that have a forecast (every review but a card's
first) are held out, and the fitted parameters are kept only when their log loss on the
held-out reviews is below that of the parameters in use. Both are measured the way the bot
forecasts: each card replayed through the ``fsrs`` scheduler with learning steps off, the
recall before each held-out review as its forecast, a review recalled unless graded missed.
A fit is tried once the log has :data:`MIN_REVIEWS` forecastable reviews.

Fitting is pure CPU (seconds for thousands of reviews): callers run it in a worker thread.
The optimizer is ``fsrs-rs-python``'s (FSRS-6, 21 parameters, no PyTorch); without that
package installed no fit is made and the defaults stay.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from fsrs import Card, Rating, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS

# Forecastable reviews (a card's second and later) a log needs before a fit is tried: with
# fewer, a fit of 21 parameters follows the noise, and a fifth held out (80 reviews) is too
# few to tell two sets of parameters apart. Anki asks for a few hundred too.
MIN_REVIEWS = 400
HELD_OUT_SHARE = 0.2  # the latest fifth of the forecastable reviews is held out
_EDGE = 1e-6

Parameters = tuple[float, ...]
DEFAULTS: Parameters = tuple(float(w) for w in DEFAULT_PARAMETERS)
# One review as the optimizer reads it: (rating 1-4, whole days since the card's last review)
Item = Sequence[tuple[int, int]]
Optimizer = Callable[[Sequence[Item]], Sequence[float]]


@dataclass(frozen=True, slots=True)
class Review:
    """One review of the log: whose card (member and question), the rating, when."""

    card: tuple[int, int]
    rating: int  # 1 missed .. 4 nailed, the FSRS rating
    at: datetime


@dataclass(frozen=True, slots=True)
class FitOutcome:
    """A fit's figures: reviews fitted on and held out, both losses, whether it is kept."""

    reviews: int  # forecastable reviews before the cut-off (fitted on)
    held_out: int
    loss_before: float | None  # held-out log loss of the parameters in use
    loss_fitted: float | None
    parameters: Parameters | None  # None: no fit was made (see error)
    kept: bool
    error: str | None = None


def histories(log: Sequence[Review]) -> dict[tuple[int, int], list[Review]]:
    """The log per card, oldest first."""
    cards: dict[tuple[int, int], list[Review]] = {}
    for review in sorted(log, key=lambda r: (r.at, r.card)):
        cards.setdefault(review.card, []).append(review)
    return cards


def forecastable(cards: Mapping[tuple[int, int], Sequence[Review]]) -> int:
    return sum(max(0, len(reviews) - 1) for reviews in cards.values())


def scheduler(parameters: Sequence[float]) -> Scheduler:
    """The bot's scheduler with these parameters (learning steps off, no fuzz)."""
    return Scheduler(
        parameters=tuple(parameters),
        learning_steps=(),
        relearning_steps=(),
        enable_fuzzing=False,
    )


def log_loss(
    cards: Mapping[tuple[int, int], Sequence[Review]],
    parameters: Sequence[float],
    since: datetime,
) -> tuple[float, int]:
    """The mean log loss of the forecasts of the reviews at or after ``since`` that have one,
    each card replayed from its first review; and how many there were."""
    model = scheduler(parameters)
    total, count = 0.0, 0
    for key, reviews in cards.items():
        card = Card(card_id=key[1], due=_utc(reviews[0].at))
        for index, review in enumerate(reviews):
            at = _utc(review.at)
            if index and review.at >= since:
                recall = float(model.get_card_retrievability(card, at))
                recall = min(1 - _EDGE, max(_EDGE, recall))
                total -= math.log(recall if review.rating > 1 else 1 - recall)
                count += 1
            card, _ = model.review_card(card, Rating(review.rating), at)
    return (total / count if count else 0.0), count


def training_items(
    cards: Mapping[tuple[int, int], Sequence[Review]], before: datetime
) -> list[Item]:
    """What the optimizer fits on: every card's reviews before ``before``, as one item per
    forecastable review (the reviews up to it, each with the whole days since the last)."""
    items: list[Item] = []
    for reviews in cards.values():
        steps: list[tuple[int, int]] = []
        last: datetime | None = None
        for review in reviews:
            if review.at >= before:
                break
            days = 0 if last is None else max(0, (review.at.date() - last.date()).days)
            steps.append((review.rating, days))
            last = review.at
            if len(steps) > 1:
                items.append(tuple(steps))
    return items


def cut_off(cards: Mapping[tuple[int, int], Sequence[Review]]) -> datetime:
    """The moment from which the latest :data:`HELD_OUT_SHARE` of forecastable reviews on."""
    times = sorted(r.at for reviews in cards.values() for r in reviews[1:])
    return times[int(len(times) * (1 - HELD_OUT_SHARE))]


def fit(log: Sequence[Review], current: Sequence[float], optimizer: Optimizer) -> FitOutcome:
    """Fit on the log before the cut-off, and keep the fit only when its held-out log loss is
    below that of ``current``. A log too short, or an optimizer that fails, keeps
    ``current`` (with the reason as the outcome's error)."""
    cards = histories(log)
    total = forecastable(cards)
    if total < MIN_REVIEWS:
        return FitOutcome(
            total, 0, None, None, None, False, f"{total} reviews, fewer than {MIN_REVIEWS}"
        )
    since = cut_off(cards)
    items = training_items(cards, since)
    loss_before, held_out = log_loss(cards, current, since)
    try:
        fitted = tuple(float(w) for w in optimizer(items))
        if len(fitted) != len(DEFAULTS):
            raise ValueError(f"the optimizer gave {len(fitted)} parameters, not {len(DEFAULTS)}")
        loss_fitted, _ = log_loss(cards, fitted, since)
    except Exception as problem:
        error = f"{type(problem).__name__}: {problem}"
        return FitOutcome(len(items), held_out, loss_before, None, None, False, error)
    kept = loss_fitted < loss_before
    return FitOutcome(len(items), held_out, loss_before, loss_fitted, fitted, kept)


def rust_optimizer() -> Optimizer | None:
    """``fsrs-rs-python``'s optimizer (FSRS-6), or None when the package is not installed."""
    try:
        import fsrs_rs_python as rs
    except ImportError:
        return None

    def optimize(items: Sequence[Item]) -> Sequence[float]:
        model = rs.FSRS(list(rs.DEFAULT_PARAMETERS))
        rs_items = [
            rs.FSRSItem([rs.FSRSReview(rating, days) for rating, days in item]) for item in items
        ]
        fitted: list[float] = model.compute_parameters(rs_items, enable_short_term=False)
        return fitted

    return optimize


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)
