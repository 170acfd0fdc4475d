"""The memory model: FSRS cards built from the grades given, and what they forecast.

A card is never edited in place: it is the replay of its grades, oldest first, through
the ``fsrs`` scheduler, so a changed grade simply replays differently. FSRS's minute-long
learning and relearning steps are configured away: a question is asked at most once a
day, so every review schedules the next one whole days later.

A :class:`MemoryModel` is the scheduler of one set of FSRS parameters: a workspace's kept
fit (see :mod:`bot.learning.parameter_fitting`), else FSRS's defaults (:data:`DEFAULT_MODEL`,
which the module-level functions use).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import groupby

from fsrs import Card, Scheduler, State

from bot.kernel.grades import Grade
from bot.learning.first_sight import DEFAULT_PRIOR_RECALL
from bot.learning.parameter_fit import DEFAULTS, Parameters, scheduler

SCHEDULER = scheduler(DEFAULTS)
# A never-graded question is recalled with the member's learned prior (a member often
# knows part of an answer before practising it); this is it with no first grade at all.
PRIOR_RECALL = DEFAULT_PRIOR_RECALL


@dataclass(frozen=True, slots=True)
class MemoryCard:
    """FSRS state of one question for one member (or one channel)."""

    question_id: int
    stability: float
    difficulty: float
    due: datetime
    last_review: datetime
    reviews: int


@dataclass(frozen=True, slots=True)
class LoggedGrade:
    """One grade of the review log, as a card is rebuilt from it."""

    grade: Grade
    at: datetime
    round_id: int | None = None


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


def to_fsrs(card: MemoryCard) -> Card:
    return Card(
        card_id=card.question_id,
        state=State.Review,
        stability=card.stability,
        difficulty=card.difficulty,
        due=_utc(card.due),
        last_review=_utc(card.last_review),
    )


def from_fsrs(question_id: int, card: Card, reviews: int) -> MemoryCard:
    if card.stability is None or card.difficulty is None or card.last_review is None:
        raise ValueError("an FSRS card that was never reviewed has no memory state")
    return MemoryCard(
        question_id, card.stability, card.difficulty, card.due, card.last_review, reviews
    )


@dataclass(frozen=True)
class MemoryModel:
    """The cards and forecasts of one set of FSRS parameters."""

    parameters: Parameters
    scheduler: Scheduler = field(init=False, repr=False, compare=False)
    # FSRS-6's forgetting curve, as the scheduler computes it: R = (1 + FACTOR * t / S) ** DECAY
    _decay: float = field(init=False, repr=False, compare=False)
    _factor: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        model = scheduler(self.parameters)
        decay = -float(model.parameters[20])
        object.__setattr__(self, "scheduler", model)
        object.__setattr__(self, "_decay", decay)
        object.__setattr__(self, "_factor", 0.9 ** (1 / decay) - 1)

    def review(
        self, question_id: int, card: MemoryCard | None, grade: Grade, at: datetime
    ) -> MemoryCard:
        """The card after one more grade at ``at`` (a first grade when ``card`` is None)."""
        moment = _utc(at)
        before = Card(card_id=question_id, due=moment) if card is None else to_fsrs(card)
        after, _ = self.scheduler.review_card(before, grade.rating, moment)
        return from_fsrs(question_id, after, 1 if card is None else card.reviews + 1)

    def replay(
        self, question_id: int, grades: Iterable[tuple[Grade, datetime]]
    ) -> MemoryCard | None:
        """The card of these grades given in this order; None without any grade."""
        card: MemoryCard | None = None
        for grade, at in grades:
            card = self.review(question_id, card, grade, at)
        return card

    def member_card(self, question_id: int, log: Sequence[LoggedGrade]) -> MemoryCard | None:
        """A member's card: each grade is one review."""
        return self.replay(question_id, ((g.grade, g.at) for g in sorted(log, key=lambda g: g.at)))

    def channel_card(self, question_id: int, log: Sequence[LoggedGrade]) -> MemoryCard | None:
        """A channel's card: each round with at least one grade is one review, at the time of
        its first grade, graded :func:`channel_grade`; a round nobody graded is no review."""
        rounds = sorted(
            (g for g in log if g.round_id is not None), key=lambda g: (g.round_id, g.at)
        )
        reviews: list[tuple[Grade, datetime]] = []
        for _, graded in groupby(rounds, key=lambda g: g.round_id):
            given = list(graded)
            reviews.append((channel_grade([g.grade for g in given]), given[0].at))
        reviews.sort(key=lambda r: r[1])
        return self.replay(question_id, reviews)

    def recall_after(self, stability: float, last_review: datetime, at: datetime) -> float:
        """What :func:`recall` gives for a card of this stability last reviewed then, without
        building an FSRS card: for thousands of cards at once (a team's heatmap)."""
        elapsed_days = max(0, (_utc(at) - _utc(last_review)).days)
        return float((1 + self._factor * elapsed_days / stability) ** self._decay)

    def recall(self, card: MemoryCard | None, at: datetime, prior: float = PRIOR_RECALL) -> float:
        """The probability of recalling the answer at ``at`` (FSRS retrievability)."""
        if card is None:
            return prior
        return float(self.scheduler.get_card_retrievability(to_fsrs(card), _utc(at)))

    def recall_gain(
        self,
        question_id: int,
        card: MemoryCard | None,
        now: datetime,
        target: datetime,
        prior: float = PRIOR_RECALL,
    ) -> float:
        """How much practising the question at ``now`` raises its expected recall at ``target``.

        The member recalls it now with the model's probability and would then grade it good,
        or misses it: the forecasts of the two outcomes weighted by their chances, less the
        forecast without practice.
        """
        recalled_now = self.recall(card, now, prior)
        remembered = self.review(question_id, card, Grade.GOOD, now)
        forgotten = self.review(question_id, card, Grade.MISSED, now)
        after = recalled_now * self.recall(remembered, target) + (1 - recalled_now) * self.recall(
            forgotten, target
        )
        return after - self.recall(card, target, prior)


def channel_grade(grades: Sequence[Grade]) -> Grade:
    """The channel's grade for one round: the mean of its members' grades, rounded half up."""
    mean = sum(int(g) for g in grades) / len(grades)
    return Grade(int(mean + 0.5))


DEFAULT_MODEL = MemoryModel(DEFAULTS)
review = DEFAULT_MODEL.review
replay = DEFAULT_MODEL.replay
member_card = DEFAULT_MODEL.member_card
channel_card = DEFAULT_MODEL.channel_card
recall_after = DEFAULT_MODEL.recall_after
recall = DEFAULT_MODEL.recall
recall_gain = DEFAULT_MODEL.recall_gain


# The model a workspace (platform, workspace id) runs on: the learning service's
# ``workspace_model``; features that forecast take it, :func:`defaults_everywhere` in tests.
ModelOf = Callable[[str, str], Awaitable[MemoryModel]]


async def defaults_everywhere(_platform: str, _workspace: str) -> MemoryModel:
    return DEFAULT_MODEL


def reviewed_within(card: MemoryCard | None, now: datetime, span: timedelta) -> bool:
    return card is not None and now - card.last_review < span
