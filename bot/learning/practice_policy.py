"""Which question a member practises next.

The shipped policy picks the question whose practice now raises the member's expected
recall on their target date the most, as the FSRS model forecasts it, never-seen
questions included at the member's learned prior recall (:mod:`bot.learning.first_sight`),
and counting the practice still to come: each question is forecast with its share of the
reviews the member will make before the target at their own pace (see
:mod:`bot.learning._practice_forecast`). A member without a goal date has no target: the
policy then plans :data:`NO_GOAL_HORIZONS` ahead, rolling on with every choice, the
planning that measured best on the bench over recall measured 30 to 180 days on.
bench/learning.py compares it with round-robin practice and with the rule as shipped
before (a constant prior of 0.2, 30 days ahead without a goal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Protocol

from bot.learning._practice_forecast import DAY, Forecast, model_curve, state_of
from bot.learning.first_sight import DEFAULT_PRIOR_RECALL
from bot.learning.memory_model import DEFAULT_MODEL, MemoryCard, MemoryModel

# Days ahead planned for when the member has no goal date (several: their gains averaged),
# rolling on with every choice. On the bench, with recall measured 30, 60, 90 and 180 days
# on, banks of 30, 60 and 120 questions, the mean ratio to round-robin over those twelve
# settings was 1.022 for 14 days, 1.024 for 7, 1.016 for 30 and 1.003 for 60, and lower
# for 90 and for mixes of 30 to 180 days; the mean recall over the next two or four weeks
# (gains averaged over 3, 7 and 14 days ahead, or 7 to 28: what a measurement at an
# unknown moment asks for) gave 1.024 and 1.022, at one forecast per horizon. 7 days and
# the two-week mean are within their error of 14 days and leave the same six settings
# below 1.02 (none lifted the settings 30 days on above it), so 14 stays: looking far
# ahead forgoes the reviews that keep recall up meanwhile, and a later moment is reached
# rolling anyway.
NO_GOAL_HORIZONS: tuple[float, ...] = (14.0,)


@dataclass(frozen=True, slots=True)
class PracticeRequest:
    """What a policy chooses from: the eligible questions, the member's cards, the dates."""

    member_id: int
    candidates: Sequence[int]  # eligible question ids, in bank order
    cards: Mapping[int, MemoryCard]  # the member's cards (absent: never graded)
    now: datetime
    target: datetime | None  # the member's goal; None: no goal set (or it has passed)
    reviews_per_day: float = 0.0  # the member's pace of grades (practice and channel)
    # the member's recall on first sight of each candidate they never graded (absent:
    # DEFAULT_PRIOR_RECALL)
    priors: Mapping[int, float] = field(default_factory=dict)
    model: MemoryModel = DEFAULT_MODEL  # the member's workspace's (its kept fit, or defaults)

    def horizons(self, no_goal: Sequence[float]) -> list[float]:
        """The days ahead to plan for: to the goal, or ``no_goal`` without one."""
        if self.target is None:
            return list(no_goal)
        return [max(0.0, (self.target - self.now) / DAY)]

    def prior(self, question_id: int) -> float:
        return self.priors.get(question_id, DEFAULT_PRIOR_RECALL)


class PracticePolicy(Protocol):
    """Picks a member's next practice question among the candidates."""

    def choose(self, request: PracticeRequest) -> int | None:
        """A question id of ``request.candidates``; None when there is none."""
        ...


@dataclass(frozen=True, slots=True)
class PlannedRecallGain:
    """The shipped policy: the largest practice gain, each question counting on an equal
    share of the reviews the member makes before each horizon at their pace, averaged
    over the horizons; ties go to the earlier question."""

    no_goal_horizons: tuple[float, ...] = NO_GOAL_HORIZONS

    def choose(self, request: PracticeRequest) -> int | None:
        if not request.candidates:
            return None
        curve = model_curve(request.model)
        forecasts = [
            Forecast(
                days,
                request.reviews_per_day * days / len(request.candidates),
                curve=curve,
            )
            for days in request.horizons(self.no_goal_horizons)
        ]
        never_graded: dict[float, float] = {}  # the same gain for every such question
        best: tuple[float, int] | None = None
        for question_id in request.candidates:
            card = request.cards.get(question_id)
            if card is None:
                prior = request.prior(question_id)
                gain = never_graded.get(prior)
                if gain is None:
                    gain = sum(f.gain(None, prior) for f in forecasts) / len(forecasts)
                    never_graded[prior] = gain
            else:
                state = state_of(card, request.now)
                gain = sum(f.gain(state) for f in forecasts) / len(forecasts)
            if best is None or gain > best[0]:
                best = (gain, question_id)
        return None if best is None else best[1]


@dataclass(frozen=True, slots=True)
class ExpectedRecallGain:
    """The one-review rule: the largest ``memory_model.recall_gain``, as if nothing were
    practised after this review (the forecast with no share of practice to come, which is
    that gain to the last bit), averaged over the horizons; ties go to the earlier
    question."""

    no_goal_horizons: tuple[float, ...] = NO_GOAL_HORIZONS

    def choose(self, request: PracticeRequest) -> int | None:
        planned = PlannedRecallGain(self.no_goal_horizons)
        return planned.choose(replace(request, reviews_per_day=0.0))


def shipped_policy() -> PracticePolicy:
    """The policy private practice is chosen with."""
    return PlannedRecallGain()


def no_goal_horizons() -> str:
    """How far practice looks ahead without a goal, as the cards say it ("14", "30 and 90")."""
    days = [f"{h:g}" for h in NO_GOAL_HORIZONS]
    return days[0] if len(days) == 1 else f"{', '.join(days[:-1])} and {days[-1]}"
