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

The constants are a :class:`Curve`'s, one per set of parameters (the workspace's kept fit,
else FSRS's defaults: :data:`DEFAULT_CURVE`, which the module-level names are bound to).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from itertools import pairwise

from fsrs import Rating, Scheduler
from fsrs.scheduler import MAX_DIFFICULTY, MIN_DIFFICULTY, STABILITY_MIN

from bot.learning.memory_model import DEFAULT_MODEL, PRIOR_RECALL, MemoryCard, MemoryModel
from bot.learning.parameter_fit import Parameters, scheduler

MAX_PLANNED_REVIEWS = 3  # a longer plan costs twice as much per review and changes little
DAY = timedelta(days=1)
_E = math.e

# (stability, difficulty, last review) with times in days since "now"; None: never graded
State = tuple[float, float, float] | None


class Curve:
    """One scheduler's parameters and the constant parts of its formulas, computed once by
    the same expressions its methods evaluate on every call; and those formulas."""

    def __init__(self, model: Scheduler) -> None:
        w = model.parameters
        self.scheduler = model
        self._w = w
        self.factor: float = model._FACTOR
        self._decay: float = model._DECAY
        self.first_stability_good = model._initial_stability(rating=Rating.Good)
        self.first_stability_again = model._initial_stability(rating=Rating.Again)
        self.first_difficulty_good = model._initial_difficulty(rating=Rating.Good, clamp=True)
        self.first_difficulty_again = model._initial_difficulty(rating=Rating.Again, clamp=True)
        self._easy_difficulty = model._initial_difficulty(rating=Rating.Easy, clamp=False)
        self._same_day_good: float = _E ** (w[17] * (Rating.Good - 3 + w[18]))
        self._same_day_again: float = _E ** (w[17] * (Rating.Again - 3 + w[18]))
        self._recall_growth: float = _E ** (w[8])
        self._forget_short_term: float = _E ** (w[17] * w[18])
        self.delta_good: float = -(w[6] * (Rating.Good - 3))
        self.delta_again: float = -(w[6] * (Rating.Again - 3))

    def recall(self, stability: float, last: float, at: float) -> float:
        """Retrievability ``at`` days from now of a card last reviewed at ``last`` (whole
        days elapsed, as the package counts): ``get_card_retrievability``."""
        elapsed = math.floor(at - last)
        return self.recall_after(self.factor * (elapsed if elapsed > 0 else 0), stability)

    def recall_after(self, span: float, stability: float) -> float:
        """Retrievability after ``span``: ``factor`` times the whole days elapsed (the
        package's ``_FACTOR * elapsed / stability``, whose product comes first)."""
        recall: float = (1 + span / stability) ** self._decay
        return recall

    def stability_good(
        self, stability: float, difficulty: float, recall: float, same_day: bool
    ) -> float:
        """The stability after a review graded good, recalled with ``recall``: the package's
        ``_short_term_stability`` on the day of the last review, else ``_next_stability``."""
        w = self._w
        if same_day:
            increase: float = self._same_day_good * (stability ** -w[19])
            grown = stability * (increase if increase > 1.0 else 1.0)
        else:
            # the package multiplies by a hard penalty and an easy bonus, both 1 for good
            grown = stability * (
                1
                + self._recall_growth
                * (11 - difficulty)
                * (stability ** -w[9])
                * ((_E ** ((1 - recall) * w[10])) - 1)
            )
        return STABILITY_MIN if grown < STABILITY_MIN else grown

    def stability_again(
        self, stability: float, difficulty: float, recall: float, same_day: bool
    ) -> float:
        """The stability after a review graded again (missed), recalled with ``recall``."""
        w = self._w
        if same_day:
            kept: float = stability * (self._same_day_again * (stability ** -w[19]))
        else:
            long_term: float = (
                w[11]
                * (difficulty ** -w[12])
                * (((stability + 1) ** (w[13])) - 1)
                * (_E ** ((1 - recall) * w[14]))
            )
            short_term = stability / self._forget_short_term
            kept = short_term if short_term < long_term else long_term
        return STABILITY_MIN if kept < STABILITY_MIN else kept

    def difficulty_after(self, difficulty: float, delta: float) -> float:
        """``_next_difficulty`` for the rating whose ``delta`` (``-(w6 * (rating - 3))``) it
        is."""
        damped = difficulty + (10.0 - difficulty) * delta / 9.0
        reverted = self._w[7] * self._easy_difficulty + (1 - self._w[7]) * damped
        clamped = MIN_DIFFICULTY if reverted < MIN_DIFFICULTY else reverted
        return MAX_DIFFICULTY if clamped > MAX_DIFFICULTY else clamped

    def recall_at(self, state: State, at: float, prior: float = PRIOR_RECALL) -> float:
        """FSRS retrievability ``at`` days from now (whole days elapsed, as the package
        counts)."""
        if state is None:
            return prior
        return self.recall(state[0], state[2], at)

    def review_at(self, state: State, rating: Rating, at: float) -> State:
        """The state after a review graded ``rating`` ``at`` days from now, as
        ``review_card`` computes it with learning steps off (through the scheduler's
        methods: the forecast's written-out good and again reviews are checked against
        this)."""
        model = self.scheduler
        if state is None:
            return (
                model._initial_stability(rating=rating),
                model._initial_difficulty(rating=rating, clamp=True),
                at,
            )
        stability, difficulty, last = state
        elapsed = math.floor(at - last)
        if elapsed < 1:
            stability = model._short_term_stability(stability=stability, rating=rating)
        else:
            stability = model._next_stability(
                difficulty=difficulty,
                stability=stability,
                retrievability=self.recall_at(state, at),
                rating=rating,
            )
        return (stability, model._next_difficulty(difficulty=difficulty, rating=rating), at)

    def review(
        self,
        stability: float,
        difficulty: float,
        recall: float,
        same_day: bool,
        plan: _Plan,
        step: int,
    ) -> float:
        """The expected recall at the target from the review ``step`` of ``plan`` on:
        recalled with ``recall`` (then graded good) or missed."""
        good = self.stability_good(stability, difficulty, recall, same_day)
        again = self.stability_again(stability, difficulty, recall, same_day)
        if step + 1 == len(plan.times):  # the last review: only the stabilities reach the target
            span = plan.last_span
            return recall * self.recall_after(span, good) + (1 - recall) * self.recall_after(
                span, again
            )
        after_good = self.after(
            good, self.difficulty_after(difficulty, self.delta_good), plan, step
        )
        after_again = self.after(
            again, self.difficulty_after(difficulty, self.delta_again), plan, step
        )
        return recall * after_good + (1 - recall) * after_again

    def after(self, stability: float, difficulty: float, plan: _Plan, step: int) -> float:
        """The expected recall at the target of a card just reviewed at review ``step``."""
        if step + 1 == len(plan.times):
            return self.recall_after(plan.last_span, stability)
        recall = self.recall_after(plan.spans[step], stability)
        return self.review(stability, difficulty, recall, plan.same_days[step], plan, step + 1)


@lru_cache(maxsize=64)
def curve_of(parameters: Parameters) -> Curve:
    """The curve of these parameters (a workspace's: a handful in use at once)."""
    return Curve(scheduler(parameters))


def model_curve(model: MemoryModel) -> Curve:
    return curve_of(tuple(model.parameters))


DEFAULT_CURVE = model_curve(DEFAULT_MODEL)
# the defaults' formulas by name, as the tests check them against the package
_stability_good = DEFAULT_CURVE.stability_good
_stability_again = DEFAULT_CURVE.stability_again
recall_at = DEFAULT_CURVE.recall_at
review_at = DEFAULT_CURVE.review_at


def state_of(card: MemoryCard | None, now: datetime) -> State:
    if card is None:
        return None
    return (card.stability, card.difficulty, (card.last_review - now) / DAY)


@dataclass(frozen=True, slots=True)
class _Plan:
    """Reviews evenly spread from now to the target: their times (days from now) and, as
    the spacing is the same for every question, each gap's whole days worked out once."""

    times: tuple[float, ...]
    spans: tuple[float, ...]  # the curve's factor * whole days from review k to review k + 1
    same_days: tuple[bool, ...]  # whether review k + 1 falls on the day of review k
    last_span: float  # the curve's factor * whole days from the last review to the target

    @classmethod
    def of(cls, horizon: float, reviews: int, factor: float) -> _Plan:
        times = tuple(horizon * n / (reviews + 1) for n in range(1, reviews + 1))
        gaps = [math.floor(later - earlier) for earlier, later in pairwise(times)]
        last = math.floor(horizon - times[-1]) if times else 0
        return cls(
            times,
            tuple(factor * (gap if gap > 0 else 0) for gap in gaps),
            tuple(gap < 1 for gap in gaps),
            factor * (last if last > 0 else 0),
        )


class Forecast:
    """The practice forecast of one choice: the target (days from now), each question's
    share of the reviews to come, the prior, the curve of the workspace's parameters; the
    plans it weighs are worked out once for every question."""

    def __init__(
        self,
        horizon: float,
        share: float,
        prior: float = PRIOR_RECALL,
        curve: Curve = DEFAULT_CURVE,
    ) -> None:
        self.horizon = horizon
        self.prior = prior
        self._curve = curve
        share = min(max(share, 0.0), float(MAX_PLANNED_REVIEWS))
        self._fewer = _Plan.of(horizon, int(share), curve.factor)
        self._more = _Plan.of(horizon, int(share) + 1, curve.factor)
        self._weight = share - int(share)

    def gain(self, state: State, prior: float | None = None) -> float:
        """How much practising the question now raises its expected recall at the target
        (``prior``: a never-graded question's recall on first sight, if not the
        forecast's)."""
        prior = self.prior if prior is None else prior
        curve = self._curve
        if state is None:
            chance = prior
            good: State = (curve.first_stability_good, curve.first_difficulty_good, 0.0)
            again: State = (curve.first_stability_again, curve.first_difficulty_again, 0.0)
        else:
            stability, difficulty, last = state
            elapsed = math.floor(0.0 - last)
            chance = curve.recall(stability, last, 0.0)
            good = (
                curve.stability_good(stability, difficulty, chance, elapsed < 1),
                curve.difficulty_after(difficulty, curve.delta_good),
                0.0,
            )
            again = (
                curve.stability_again(stability, difficulty, chance, elapsed < 1),
                curve.difficulty_after(difficulty, curve.delta_again),
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
        curve = self._curve
        if not plan.times:
            return curve.recall_at(state, self.horizon, prior)
        if state is None:  # recalled with the prior at the first review
            chance = prior
            good = curve.after(curve.first_stability_good, curve.first_difficulty_good, plan, 0)
            again = curve.after(curve.first_stability_again, curve.first_difficulty_again, plan, 0)
            return chance * good + (1 - chance) * again
        stability, difficulty, last = state
        elapsed = math.floor(plan.times[0] - last)
        recall = curve.recall(stability, last, plan.times[0])
        return curve.review(stability, difficulty, recall, elapsed < 1, plan, 0)


def practice_gain(
    card: MemoryCard | None,
    now: datetime,
    target: datetime,
    share: float,
    prior: float = PRIOR_RECALL,
    model: MemoryModel = DEFAULT_MODEL,
) -> float:
    """How much practising the question at ``now`` raises its expected recall at ``target``,
    when it will also get ``share`` reviews of the practice still to come."""
    forecast = Forecast((target - now) / DAY, share, prior, model_curve(model))
    return forecast.gain(state_of(card, now))
