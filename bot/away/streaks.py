"""A member's streak in one channel: the channel's scheduled rounds they answered in a
row. A round is excused, neither counting nor breaking the streak unless answered, when
it fell on one of the member's days away or an admin closed it with `/quiz skip` (as a
skipped day has no round to miss). Rounds posted with `/quiz now` are extra practice:
they are not scheduled rounds, so they neither add to a streak nor break it."""

from __future__ import annotations

from collections.abc import Iterable

from bot.away.periods import AwayPeriod, excused_rounds
from bot.kernel.models import MemberHistory
from bot.kernel.scoring import Streak, streak


def member_streak(
    history: MemberHistory,
    periods: Iterable[AwayPeriod],
    timezone: str,
    open_round_id: int | None,
) -> Streak:
    """The member's current and best streak in the channel ``history`` was read from."""
    scheduled = tuple(zip(history.scheduled_round_ids, history.scheduled_round_times, strict=True))
    excused = excused_rounds(scheduled, periods, timezone) | history.skipped_round_ids
    return streak(history.scheduled_round_ids, history.answered_round_ids, open_round_id, excused)


def unscheduled_answers(history: MemberHistory) -> int:
    """How many rounds the member answered that are no scheduled rounds (`/quiz now`)."""
    return len(history.answered_round_ids.difference(history.scheduled_round_ids))
