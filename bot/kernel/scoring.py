"""Points, streaks and leaderboard periods."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """The points for an answer, the bonus before the reveal, and votes."""

    answer: int = 10  # a member's first answer in a round
    before_reveal_bonus: int = 5  # ... given before the outline was revealed
    per_vote: int = 1  # each peer 👍 on the answer
    max_votes: int = 5  # votes counted per answer
    approved_suggestion: int = 20  # a member's suggested question was approved by an admin


@dataclass(frozen=True, slots=True)
class JudgedTicks:
    """The key points (1-based) of an answer that someone other than its author judged it
    to cover: the union of its teammates' review ticks, and the coach's verified ticks its
    author accepted. The author's own ticks (``/quiz covered``) are never among them."""

    reviewers: frozenset[int] = frozenset()
    accepted_coach: frozenset[int] = frozenset()  # filled once the coach records acceptances

    @property
    def covered(self) -> frozenset[int]:
        return self.reviewers | self.accepted_coach


def quality_points(answer_points: int, judged: JudgedTicks, key_points: int) -> int:
    """Points for quality: ``answer_points`` (what answering earned: 10, +5 before the
    reveal; 0 for a member's later reply) times the share of the question's ``key_points``
    judged covered, rounded half up. Covering every key point doubles what answering
    earned, and never more; a question without key points earns none."""
    if key_points <= 0 or answer_points <= 0:
        return 0
    covered = sum(1 for point in judged.covered if 1 <= point <= key_points)
    return (2 * answer_points * covered + key_points) // (2 * key_points)


class Period(StrEnum):
    """The span a leaderboard counts."""

    WEEK = "week"
    MONTH = "month"
    ALL = "all"


def period_start(period: Period, now: datetime, timezone: str) -> datetime | None:
    """The start of ``period`` containing ``now``, in the channel's timezone (None: all time).

    Weeks start on Monday 00:00 local time; months on the 1st.
    """
    if period is Period.ALL:
        return None
    zone = ZoneInfo(timezone)
    local = now.astimezone(zone)
    if period is Period.WEEK:
        first_day = local.date() - timedelta(days=local.weekday())
    else:
        first_day = local.date().replace(day=1)
    return datetime.combine(first_day, time(0), tzinfo=zone).astimezone(ZoneInfo("UTC"))


@dataclass(frozen=True, slots=True)
class Streak:
    """A member's current and best run of answered scheduled rounds."""

    current: int
    best: int


def streak(
    scheduled_round_ids: Sequence[int],
    answered: frozenset[int],
    open_round_id: int | None,
    excused: frozenset[int] = frozenset(),
) -> Streak:
    """Consecutive scheduled rounds of a channel that the member answered.

    ``scheduled_round_ids`` is oldest first. A round still open and not yet
    answered does not break the current streak: the member may still answer.
    An ``excused`` round (one of a day the member was away) that they did not
    answer neither counts nor breaks; answered, it counts like any other.
    """
    best = run = 0
    for round_id in scheduled_round_ids:
        if round_id in answered:
            run += 1
        elif round_id not in excused:
            run = 0
        best = max(best, run)
    current = 0
    for round_id in reversed(scheduled_round_ids):
        if round_id in answered:
            current += 1
        elif round_id in excused or (round_id == open_round_id and current == 0):
            continue
        else:
            break
    return Streak(current=current, best=best)
