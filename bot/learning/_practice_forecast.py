"""What practising a question now is worth, counting the practice still to come.

A question's value is its expected recall on the target date if it gets its share of the
member's remaining practice: that many more reviews, evenly spread between now and the
target, each recalled with the model's probability (and then graded good) or missed.
Practising it now is worth its value after this review (both outcomes weighted by their
chances) less its value without it. So a first exposure is worth what it makes the later
reviews worth, not only its own forecast, and a question that will come round again anyway
gains less from a review now than one whose last review this may be. With no practice to
come this is :func:`bot.learning.memory_model.recall_gain`.

One choice makes tens of thousands of hypothetical reviews, too many for the ``fsrs``
package's ``review_card`` (it copies a card and checks datetimes each time) or even for
its scheduler's stability and difficulty methods (keyword calls, clamps and constants
recomputed per call: a choice over 600 questions took 100-200 ms). The arithmetic here
is those methods' formulas, written out on plain floats with the package's parameters
read once, operation for operation in the package's order, so every value is the same
float. ``tests/core/learning/test_practice_forecast.py`` checks it against ``review_card`` and,
bit for bit, against the method-calling forecast it replaced.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise

from fsrs import Rating
from fsrs.scheduler import MAX_DIFFICULTY, MIN_DIFFICULTY, STABILITY_MIN

from bot.learning.memory_model import PRIOR_RECALL, SCHEDULER, MemoryCard

MAX_PLANNED_REVIEWS = 3  # a longer plan costs twice as much per review and changes little
DAY = timedelta(days=1)

# (stability, difficulty, last review) with times in days since "now"; None: never graded
State = tuple[float, float, float] | None

# The scheduler's parameters and the constant parts of its formulas, computed once by the
# same expressions its methods evaluate on every call.
_W = SCHEDULER.parameters
_E = math.e
_FACTOR: float = SCHEDULER._FACTOR
_DECAY: float = SCHEDULER._DECAY
_FIRST_STABILITY_GOOD = SCHEDULER._initial_stability(rating=Rating.Good)
_FIRST_STABILITY_AGAIN = SCHEDULER._initial_stability(rating=Rating.Again)
_FIRST_DIFFICULTY_GOOD = SCHEDULER._initial_difficulty(rating=Rating.Good, clamp=True)
_FIRST_DIFFICULTY_AGAIN = SCHEDULER._initial_difficulty(rating=Rating.Again, clamp=True)
_EASY_DIFFICULTY = SCHEDULER._initial_difficulty(rating=Rating.Easy, clamp=False)
_SAME_DAY_GOOD: float = _E ** (_W[17] * (Rating.Good - 3 + _W[18]))
_SAME_DAY_AGAIN: float = _E ** (_W[17] * (Rating.Again - 3 + _W[18]))
_RECALL_GROWTH: float = _E ** (_W[8])
_FORGET_SHORT_TERM: float = _E ** (_W[17] * _W[18])
_DELTA_GOOD: float = -(_W[6] * (Rating.Good - 3))
_DELTA_AGAIN: float = -(_W[6] * (Rating.Again - 3))


def _recall(stability: float, last: float, at: float) -> float:
    """Retrievability ``at`` days from now of a card last reviewed at ``last`` (whole days
    elapsed, as the package counts): ``get_card_retrievability``."""
    elapsed = math.floor(at - last)
    return _recall_after(_FACTOR * (elapsed if elapsed > 0 else 0), stability)


def _recall_after(span: float, stability: float) -> float:
    """Retrievability after ``span``: ``_FACTOR`` times the whole days elapsed (the
    package's ``_FACTOR * elapsed / stability``, whose product comes first)."""
    recall: float = (1 + span / stability) ** _DECAY
    return recall


def _stability_good(stability: float, difficulty: float, recall: float, same_day: bool) -> float:
    """The stability after a review graded good, recalled with ``recall``: the package's
    ``_short_term_stability`` on the day of the last review, else ``_next_stability``."""
    if same_day:
        increase: float = _SAME_DAY_GOOD * (stability ** -_W[19])
        grown = stability * (increase if increase > 1.0 else 1.0)
    else:
        # the package multiplies by a hard penalty and an easy bonus, both 1 for good
        grown = stability * (
            1
            + _RECALL_GROWTH
            * (11 - difficulty)
            * (stability ** -_W[9])
            * ((_E ** ((1 - recall) * _W[10])) - 1)
        )
    return STABILITY_MIN if grown < STABILITY_MIN else grown


def _stability_again(stability: float, difficulty: float, recall: float, same_day: bool) -> float:
    """The stability after a review graded again (missed), recalled with ``recall``."""
    if same_day:
        kept: float = stability * (_SAME_DAY_AGAIN * (stability ** -_W[19]))
    else:
        long_term: float = (
            _W[11]
            * (difficulty ** -_W[12])
            * (((stability + 1) ** (_W[13])) - 1)
            * (_E ** ((1 - recall) * _W[14]))
        )
        short_term = stability / _FORGET_SHORT_TERM
        kept = short_term if short_term < long_term else long_term
    return STABILITY_MIN if kept < STABILITY_MIN else kept


def _difficulty_after(difficulty: float, delta: float) -> float:
    """``_next_difficulty`` for the rating whose ``delta`` (``-(w6 * (rating - 3))``) it is."""
    damped = difficulty + (10.0 - difficulty) * delta / 9.0
    reverted = _W[7] * _EASY_DIFFICULTY + (1 - _W[7]) * damped
    clamped = MIN_DIFFICULTY if reverted < MIN_DIFFICULTY else reverted
    return MAX_DIFFICULTY if clamped > MAX_DIFFICULTY else clamped


def state_of(card: MemoryCard | None, now: datetime) -> State:
    if card is None:
        return None
    return (card.stability, card.difficulty, (card.last_review - now) / DAY)


def recall_at(state: State, at: float, prior: float = PRIOR_RECALL) -> float:
    """FSRS retrievability ``at`` days from now (whole days elapsed, as the package counts)."""
    if state is None:
        return prior
    return _recall(state[0], state[2], at)


def review_at(state: State, rating: Rating, at: float) -> State:
    """The state after a review graded ``rating`` ``at`` days from now, as ``review_card``
    computes it with learning steps off (through the scheduler's methods: the forecast's
    written-out good and again reviews are checked against this)."""
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


@dataclass(frozen=True, slots=True)
class _Plan:
    """Reviews evenly spread from now to the target: their times (days from now) and, as
    the spacing is the same for every question, each gap's whole days worked out once."""

    times: tuple[float, ...]
    spans: tuple[float, ...]  # _FACTOR * whole days from review k to review k + 1
    same_days: tuple[bool, ...]  # whether review k + 1 falls on the day of review k
    last_span: float  # _FACTOR * whole days from the last review to the target

    @classmethod
    def of(cls, horizon: float, reviews: int) -> _Plan:
        times = tuple(horizon * n / (reviews + 1) for n in range(1, reviews + 1))
        gaps = [math.floor(later - earlier) for earlier, later in pairwise(times)]
        last = math.floor(horizon - times[-1]) if times else 0
        return cls(
            times,
            tuple(_FACTOR * (gap if gap > 0 else 0) for gap in gaps),
            tuple(gap < 1 for gap in gaps),
            _FACTOR * (last if last > 0 else 0),
        )


class Forecast:
    """The practice forecast of one choice: the target (days from now), each question's
    share of the reviews to come, the prior; the plans it weighs are worked out once for
    every question."""

    def __init__(self, horizon: float, share: float, prior: float = PRIOR_RECALL) -> None:
        self.horizon = horizon
        self.prior = prior
        share = min(max(share, 0.0), float(MAX_PLANNED_REVIEWS))
        self._fewer = _Plan.of(horizon, int(share))
        self._more = _Plan.of(horizon, int(share) + 1)
        self._weight = share - int(share)

    def gain(self, state: State, prior: float | None = None) -> float:
        """How much practising the question now raises its expected recall at the target
        (``prior``: a never-graded question's recall on first sight, if not the
        forecast's)."""
        prior = self.prior if prior is None else prior
        if state is None:
            chance = prior
            good: State = (_FIRST_STABILITY_GOOD, _FIRST_DIFFICULTY_GOOD, 0.0)
            again: State = (_FIRST_STABILITY_AGAIN, _FIRST_DIFFICULTY_AGAIN, 0.0)
        else:
            stability, difficulty, last = state
            elapsed = math.floor(0.0 - last)
            chance = _recall(stability, last, 0.0)
            good = (
                _stability_good(stability, difficulty, chance, elapsed < 1),
                _difficulty_after(difficulty, _DELTA_GOOD),
                0.0,
            )
            again = (
                _stability_again(stability, difficulty, chance, elapsed < 1),
                _difficulty_after(difficulty, _DELTA_AGAIN),
                0.0,
            )
        after = chance * self.share_recall(good) + (1 - chance) * self.share_recall(again)
        return after - self.share_recall(state, prior)

    def share_recall(self, state: State, prior: float | None = None) -> float:
        """The expected recall at the target after the question's share of the reviews to
        come: the plans of the two whole numbers of reviews around it, weighted."""
        prior = self.prior if prior is None else prior
        value = self._planned(state, self._fewer, prior)
        if self._weight > 0:
            more = self._planned(state, self._more, prior)
            value = (1 - self._weight) * value + self._weight * more
        return value

    def _planned(self, state: State, plan: _Plan, prior: float) -> float:
        """The expected recall at the target after the reviews of ``plan``."""
        if not plan.times:
            return recall_at(state, self.horizon, prior)
        if state is None:  # recalled with the prior at the first review
            chance = prior
            good = _after(_FIRST_STABILITY_GOOD, _FIRST_DIFFICULTY_GOOD, plan, 0)
            again = _after(_FIRST_STABILITY_AGAIN, _FIRST_DIFFICULTY_AGAIN, plan, 0)
            return chance * good + (1 - chance) * again
        stability, difficulty, last = state
        elapsed = math.floor(plan.times[0] - last)
        recall = _recall(stability, last, plan.times[0])
        return _review(stability, difficulty, recall, elapsed < 1, plan, 0)


def _review(
    stability: float, difficulty: float, recall: float, same_day: bool, plan: _Plan, step: int
) -> float:
    """The expected recall at the target from the review ``step`` of ``plan`` on: recalled
    with ``recall`` (then graded good) or missed."""
    good = _stability_good(stability, difficulty, recall, same_day)
    again = _stability_again(stability, difficulty, recall, same_day)
    if step + 1 == len(plan.times):  # the last review: only the stabilities reach the target
        span = plan.last_span
        return recall * _recall_after(span, good) + (1 - recall) * _recall_after(span, again)
    after_good = _after(good, _difficulty_after(difficulty, _DELTA_GOOD), plan, step)
    after_again = _after(again, _difficulty_after(difficulty, _DELTA_AGAIN), plan, step)
    return recall * after_good + (1 - recall) * after_again


def _after(stability: float, difficulty: float, plan: _Plan, step: int) -> float:
    """The expected recall at the target of a card just reviewed at review ``step``."""
    if step + 1 == len(plan.times):
        return _recall_after(plan.last_span, stability)
    recall = _recall_after(plan.spans[step], stability)
    return _review(stability, difficulty, recall, plan.same_days[step], plan, step + 1)


def practice_gain(
    card: MemoryCard | None,
    now: datetime,
    target: datetime,
    share: float,
    prior: float = PRIOR_RECALL,
) -> float:
    """How much practising the question at ``now`` raises its expected recall at ``target``,
    when it will also get ``share`` reviews of the practice still to come."""
    return Forecast((target - now) / DAY, share, prior).gain(state_of(card, now))
