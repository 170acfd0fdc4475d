"""What a ``/quiz`` invocation asks for, as typed commands (see :mod:`bot.command_registry`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from bot.errors import Refused
from bot.grades import Grade
from bot.models import FollowUpPolicy
from bot.scoring import Period


class CommandError(Refused, ValueError):
    """A bad ``/quiz`` argument; the message gives the right form and an example."""


@dataclass(frozen=True, slots=True)
class Help:
    note: str = ""


@dataclass(frozen=True, slots=True)
class ShowLeaderboard:
    period: Period = Period.WEEK
    public: bool = False


@dataclass(frozen=True, slots=True)
class ShowMe:
    pass


@dataclass(frozen=True, slots=True)
class ShowStats:
    public: bool = False


@dataclass(frozen=True, slots=True)
class ShowTopics:
    pass


@dataclass(frozen=True, slots=True)
class ShowSchedule:
    pass


@dataclass(frozen=True, slots=True)
class ShowPacks:
    pass


@dataclass(frozen=True, slots=True)
class PostNow:
    topic: str | None = None


@dataclass(frozen=True, slots=True)
class RevealNow:
    pass


@dataclass(frozen=True, slots=True)
class SkipRound:
    pass


@dataclass(frozen=True, slots=True)
class GradeRound:
    """A member's grade of the channel's latest round (None: show the current one)."""

    grade: Grade | None


@dataclass(frozen=True, slots=True)
class ShowGoal:
    pass


@dataclass(frozen=True, slots=True)
class SetGoal:
    goal: date | None  # None: no goal (practice aims 30 days ahead)


@dataclass(frozen=True, slots=True)
class SetTopics:
    enable: bool
    topics: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SetSchedule:
    spec: str
    timezone: str | None


@dataclass(frozen=True, slots=True)
class SetPaused:
    paused: bool


@dataclass(frozen=True, slots=True)
class SetRevealEmoji:
    emoji: str


@dataclass(frozen=True, slots=True)
class SetFollowUps:
    policy: FollowUpPolicy


@dataclass(frozen=True, slots=True)
class SetGrace:
    hours: float


@dataclass(frozen=True, slots=True)
class SetRevealReactors:
    count: int


@dataclass(frozen=True, slots=True)
class SuggestQuestion:
    pass


@dataclass(frozen=True, slots=True)
class ShowReview:
    pass


@dataclass(frozen=True, slots=True)
class ReviewDecision:
    """``/quiz review approve|reject|edit ITEM [REASON]``; ITEM is ``12``/``s12`` (a
    suggestion) or ``f3`` (a flag)."""

    action: str
    item: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class FlagRound:
    reason: str


@dataclass(frozen=True, slots=True)
class ShowRecap:
    pass


@dataclass(frozen=True, slots=True)
class SetRecap:
    schedule: str | None  # "fri 16:00"; None: off


QuizCommand = (
    Help
    | ShowLeaderboard
    | ShowMe
    | ShowStats
    | ShowTopics
    | ShowSchedule
    | ShowPacks
    | PostNow
    | RevealNow
    | SkipRound
    | GradeRound
    | ShowGoal
    | SetGoal
    | SetTopics
    | SetSchedule
    | SetPaused
    | SetRevealEmoji
    | SetFollowUps
    | SetGrace
    | SetRevealReactors
    | SuggestQuestion
    | ShowReview
    | ReviewDecision
    | FlagRound
    | ShowRecap
    | SetRecap
)
