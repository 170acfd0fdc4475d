"""Which question a member practises next.

The shipped policy picks the question whose practice now raises the member's expected
recall on their target date the most, as the FSRS model forecasts it, never-seen
questions included with a prior, and counting the practice still to come: each question
is forecast with its share of the reviews the member will make before the target at
their own pace (see :mod:`bot.learning._practice_forecast`). In simulation (bench/learning.py) this
beat round-robin practice by about 3%, and the same rule without the practice to come by
about 1.5%; "due first at 90% retention" lost to round-robin: it spends the budget
re-reviewing early questions and never reaches new ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.learning._practice_forecast import DAY, Forecast, state_of
from bot.learning.memory_model import PRIOR_RECALL, MemoryCard, recall_gain


@dataclass(frozen=True, slots=True)
class PracticeRequest:
    """What a policy chooses from: the eligible questions, the member's cards, the dates."""

    member_id: int
    candidates: Sequence[int]  # eligible question ids, in bank order
    cards: Mapping[int, MemoryCard]  # the member's cards (absent: never graded)
    now: datetime
    target: datetime
    reviews_per_day: float = 0.0  # the member's pace of grades (practice and channel)


class PracticePolicy(Protocol):
    """Chooses a member's next practice question."""

    """Picks a member's next practice question among the candidates."""

    def choose(self, request: PracticeRequest) -> int | None:
        """A question id of ``request.candidates``; None when there is none."""
        ...


@dataclass(frozen=True, slots=True)
class PlannedRecallGain:
    """The shipped policy: the largest :func:`practice_gain`, each question counting on an
    equal share of the reviews the member makes before the target at their pace; ties go
    to the earlier question."""

    prior: float = PRIOR_RECALL

    def choose(self, request: PracticeRequest) -> int | None:
        if not request.candidates:
            return None
        days_left = max(0.0, (request.target - request.now) / DAY)
        share = request.reviews_per_day * days_left / len(request.candidates)
        forecast = Forecast((request.target - request.now) / DAY, share, self.prior)
        never_graded: float | None = None  # the same gain for every such question
        best: tuple[float, int] | None = None
        for question_id in request.candidates:
            card = request.cards.get(question_id)
            if card is None and never_graded is not None:
                gain = never_graded
            else:
                gain = forecast.gain(state_of(card, request.now))
                if card is None:
                    never_graded = gain
            if best is None or gain > best[0]:
                best = (gain, question_id)
        return None if best is None else best[1]


@dataclass(frozen=True, slots=True)
class ExpectedRecallGain:
    """The largest :func:`recall_gain` (as if nothing were practised after this review);
    ties go to the earlier question. Outscored by :class:`PlannedRecallGain`."""

    prior: float = PRIOR_RECALL

    def choose(self, request: PracticeRequest) -> int | None:
        best: tuple[float, int] | None = None
        for question_id in request.candidates:
            card = request.cards.get(question_id)
            gain = recall_gain(question_id, card, request.now, request.target, self.prior)
            if best is None or gain > best[0]:
                best = (gain, question_id)
        return None if best is None else best[1]
