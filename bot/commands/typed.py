"""What a ``/quiz`` invocation asks for, as typed commands (see :mod:`bot.commands.registry`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from bot.kernel.errors import Refused
from bot.kernel.grades import Grade
from bot.kernel.models import AnswerMode, FollowUpPolicy
from bot.kernel.scoring import Period


class CommandError(Refused, ValueError):
    """A bad ``/quiz`` argument; the message gives the right form and an example."""


@dataclass(frozen=True, slots=True)
class Help:
    """Show the help card, with a note (e.g. an unknown subcommand)."""

    note: str = ""


@dataclass(frozen=True, slots=True)
class ShowLeaderboard:
    """Show the channel's top members for a period, privately or in the channel."""

    period: Period = Period.WEEK
    public: bool = False


@dataclass(frozen=True, slots=True)
class ShowMe:
    """Show the member's own points, rank, streaks and topics."""


@dataclass(frozen=True, slots=True)
class ShowStats:
    """Show the channel's totals, privately or in the channel."""

    public: bool = False


@dataclass(frozen=True, slots=True)
class ShowTopics:
    """List the topics and which are enabled in the channel."""


@dataclass(frozen=True, slots=True)
class ShowSchedule:
    """Show the channel's schedule and the next post."""


@dataclass(frozen=True, slots=True)
class ShowPacks:
    """List the question packs."""


@dataclass(frozen=True, slots=True)
class PostNow:
    """Post a question now, from one topic if given."""

    topic: str | None = None


@dataclass(frozen=True, slots=True)
class RevealNow:
    """Reveal the latest round's outline now."""


@dataclass(frozen=True, slots=True)
class SkipRound:
    """Close the open round without revealing it."""


@dataclass(frozen=True, slots=True)
class GradeRound:
    """A member's grade of the channel's latest round (None: show the current one)."""

    grade: Grade | None


@dataclass(frozen=True, slots=True)
class ShowGoal:
    """``/quiz goal``: the member's goal date."""


@dataclass(frozen=True, slots=True)
class SetGoal:
    """``/quiz goal YYYY-MM-DD|off``: set or clear the member's goal date."""

    goal: date | None  # None: no goal (practice aims 30 days ahead)


@dataclass(frozen=True, slots=True)
class SetTopics:
    """Enable or disable topics in the channel."""

    enable: bool
    topics: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SetSchedule:
    """Set the channel's schedule, in a timezone if given."""

    spec: str
    timezone: str | None


@dataclass(frozen=True, slots=True)
class SetPaused:
    """Pause or resume scheduled questions in the channel."""

    paused: bool


@dataclass(frozen=True, slots=True)
class SetRevealEmoji:
    """Set the emoji that reveals a question's outline."""

    emoji: str


@dataclass(frozen=True, slots=True)
class SetFollowUps:
    """Set when follow-up questions are posted."""

    policy: FollowUpPolicy


@dataclass(frozen=True, slots=True)
class SetGrace:
    """Set how late a slot missed during downtime may still be posted."""

    hours: float


@dataclass(frozen=True, slots=True)
class SetRevealReactors:
    """Set how many members must react before the outline is revealed."""

    count: int


@dataclass(frozen=True, slots=True)
class SuggestQuestion:
    """``/quiz suggest``: the form for a new question."""


@dataclass(frozen=True, slots=True)
class ShowReview:
    """``/quiz review``: what waits for review, suggestions and flags."""


@dataclass(frozen=True, slots=True)
class ReviewDecision:
    """``/quiz review approve|reject|edit ITEM [REASON]``; ITEM is ``12``/``s12`` (a
    suggestion) or ``f3`` (a flag)."""

    action: str
    item: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class FlagRound:
    """``/quiz flag REASON``: report a mistake in the current or latest round's question."""

    reason: str


@dataclass(frozen=True, slots=True)
class ShowRecap:
    """``/quiz recap``: the channel's weekly recap setting."""


@dataclass(frozen=True, slots=True)
class SetRecap:
    """``/quiz recap DAY [HH:MM]|off``: schedule or switch off the weekly recap."""

    schedule: str | None  # "fri 16:00"; None: off


@dataclass(frozen=True, slots=True)
class StartPractice:
    """``/quiz practice [TOPIC]``: start private practice in the member's DMs."""

    topic: str | None  # None: any topic


@dataclass(frozen=True, slots=True)
class StopPractice:
    """``/quiz practice stop``: end the member's practice session."""


@dataclass(frozen=True, slots=True)
class ShowReminder:
    """``/quiz remind``: show the member's daily reminder."""


@dataclass(frozen=True, slots=True)
class SetReminder:
    """``/quiz remind HH:MM [TIMEZONE]``: set the member's daily reminder."""

    local_time: str  # "HH:MM", 24-hour
    timezone: str | None  # an IANA name as stored; None: keep the current one or a default


@dataclass(frozen=True, slots=True)
class StopReminder:
    """``/quiz remind off``: stop the member's daily reminder."""


QuizCommand = (
    Help
    | ShowReminder
    | SetReminder
    | StopReminder
    | StartPractice
    | StopPractice
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


@dataclass(frozen=True, slots=True)
class SetAnswerMode:
    """Where members answer: in the thread, or blind until the reveal."""

    mode: AnswerMode


@dataclass(frozen=True, slots=True)
class AnswerRound:
    """A member's blind answer to the open round (empty: open the answer form)."""

    text: str = ""
