"""What a member asks of a channel's quiz settings, once a ``/quiz topics``, ``schedule``,
``pause``, ``resume`` or ``config`` invocation is parsed."""

from __future__ import annotations

from dataclasses import dataclass

from bot.channels.topics import SetNewTopics
from bot.kernel.local_dates import (
    DayRange,
)
from bot.kernel.models import AnswerMode, FollowUpPolicy, SeasonLength
from bot.quiz_command.typed import QuizCommand
from questions.pack import Difficulty


class ShowTopics(QuizCommand):
    """List the topics and which are enabled in the channel."""


@dataclass(frozen=True, slots=True)
class SetTopics(QuizCommand):
    """Enable or disable topics in the channel."""

    enable: bool
    topics: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ShowSchedule(QuizCommand):
    """Show the channel's schedule and the next post."""


@dataclass(frozen=True, slots=True)
class SetSchedule(QuizCommand):
    """Set the channel's schedule, in a timezone if given."""

    spec: str
    timezone: str | None


@dataclass(frozen=True, slots=True)
class SkipDays(QuizCommand):
    """``/quiz schedule skip|unskip DATE[..DATE]``: no scheduled question on those local
    dates (``skip``), or questions on them again."""

    days: DayRange
    skip: bool


@dataclass(frozen=True, slots=True)
class SetPaused(QuizCommand):
    """Pause or resume scheduled questions in the channel."""

    paused: bool


@dataclass(frozen=True, slots=True)
class SetRevealEmoji(QuizCommand):
    """Set the emoji that reveals a question's outline."""

    emoji: str


@dataclass(frozen=True, slots=True)
class SetFollowUps(QuizCommand):
    """Set when follow-up questions are posted."""

    policy: FollowUpPolicy


@dataclass(frozen=True, slots=True)
class SetGrace(QuizCommand):
    """Set how late a slot missed during downtime may still be posted."""

    hours: float


@dataclass(frozen=True, slots=True)
class SetRevealReactors(QuizCommand):
    """Set how many members must react before the outline is revealed."""

    count: int


@dataclass(frozen=True, slots=True)
class SetAnswerMode(QuizCommand):
    """Where members answer: in the thread, or blind until the reveal."""

    mode: AnswerMode


@dataclass(frozen=True, slots=True)
class ShowSettings(QuizCommand):
    """Show the channel's settings (or one of them), each with the command that changes it."""

    setting: str | None = None


@dataclass(frozen=True, slots=True)
class SetDifficulty(QuizCommand):
    """Ask only questions of one difficulty in the channel (None: any)."""

    difficulty: Difficulty | None


@dataclass(frozen=True, slots=True)
class SetRevealAfter(QuizCommand):
    """Reveal the outline this many minutes after the question if nobody did (None: off)."""

    minutes: int | None


@dataclass(frozen=True, slots=True)
class SetLastCall(QuizCommand):
    """Remind members who asked for notices this many minutes before the outline (None: off)."""

    minutes: int | None


@dataclass(frozen=True, slots=True)
class SetReviewsNamed(QuizCommand):
    """Whether an answer's author is told who reviewed it."""

    named: bool


@dataclass(frozen=True, slots=True)
class SetCoach(QuizCommand):
    """Whether the answer coach reads this channel's answers (``bot.coaching``)."""

    on: bool


@dataclass(frozen=True, slots=True)
class SetPing(QuizCommand):
    """Mention a group of members with each question, as typed ("off": nobody); read
    when it is handled, where the platform it was typed on is known (its mention syntax)."""

    typed: str


@dataclass(frozen=True, slots=True)
class SetSeasons(QuizCommand):
    """How long the channel's seasons are, or off."""

    length: SeasonLength


@dataclass(frozen=True, slots=True)
class SetSeasonRole(QuizCommand):
    """The group the season's champions are told to claim, as typed ("off": none); read
    when it is handled, like ``SetPing``."""

    typed: str


ChannelSetting = (
    SetRevealEmoji
    | SetFollowUps
    | SetGrace
    | SetRevealReactors
    | SetAnswerMode
    | SetDifficulty
    | SetRevealAfter
    | SetLastCall
    | SetPing
    | SetReviewsNamed
    | SetCoach
    | SetNewTopics
    | SetSeasons
    | SetSeasonRole
)
