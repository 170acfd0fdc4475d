"""The coach on the lead's page, while it is on in the channel: how far its verified ticks
agree with teammates' review ticks and whether that meets the stand-in rule, what the
workspace spent on it this month, and what members did with its cards."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.coach.agreement import (
    STAND_IN_ANSWERS,
    STAND_IN_PRECISION,
    STAND_IN_RECALL,
    agreement,
)
from bot.coaching.setup import CoachSetup
from bot.coaching.store import CoachStore, DecisionCounts
from bot.kernel.cards import percent
from bot.kernel.dashboard_views import (
    SMALLEST_AGGREGATE,
    DashboardSection,
    DashboardView,
    Facts,
    Note,
    Table,
)

RULE = (
    f"precision ≥ {percent(STAND_IN_PRECISION)} and recall ≥ {percent(STAND_IN_RECALL)}"
    f" on ≥ {STAND_IN_ANSWERS} answers"
)


def month_start(now: datetime) -> datetime:
    """The first moment of ``now``'s UTC month (the coach's budgets count UTC days)."""
    return now.astimezone(UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)


class CoachOnThePage:
    def __init__(self, coach: CoachStore, setup: CoachSetup | None) -> None:
        self._coach = coach
        self._setup = setup

    async def __call__(self, view: DashboardView) -> DashboardSection | None:
        channel = view.channel
        if self._setup is None or not channel.coach:
            return None
        since = month_start(view.now)
        measured = agreement(await self._coach.judged_by_both(channel.id))
        requests, tokens = await self._coach.month_usage(
            channel.ref.platform, channel.ref.workspace, since.date()
        )
        decisions = await self._coach.decision_counts(channel.id, since)
        met = measured.meets_the_stand_in_rule
        return DashboardSection(
            "Answer coach",
            "the coach's verified ticks on this channel's answers compared, key point by key"
            " point, with teammates' review ticks on the same answers (every answer both"
            f" judged); the workspace's coach requests and tokens and this channel's decisions"
            f" on the coach's cards since {since:%d %B %Y} (UTC)",
            (
                Facts(
                    (
                        ("Model", self._setup.endpoint.model),
                        ("Precision", _share(measured.precision, "the coach ticked nothing")),
                        ("Recall", _share(measured.recall, "reviewers ticked nothing")),
                        ("Answers both judged", str(measured.answers)),
                        (
                            "Stand-in rule",
                            f"{'met' if met else 'not met'} ({RULE})",
                        ),
                        ("Requests this month (workspace)", str(requests)),
                        ("Tokens this month (workspace)", str(tokens)),
                    )
                ),
                Note(
                    "The coach's ticks stand in as a grade for members who never grade."
                    if met
                    else "The coach's ticks stand in for no one: a member's grade comes"
                    " from them or their reviewers only."
                ),
                _acceptance(decisions),
            ),
        )


def _share(fraction: float | None, none: str) -> str:
    return none if fraction is None else percent(fraction)


def _acceptance(decisions: DecisionCounts) -> Table | Note:
    if decisions.members < SMALLEST_AGGREGATE:
        return Note(
            f"Acceptance is shown once {SMALLEST_AGGREGATE} members have decided on the"
            f" coach's cards this month ({decisions.members} so far)."
        )
    rows = (
        ("accepted as read", decisions.accepted),
        ("edited", decisions.edited),
        ("dismissed", decisions.dismissed),
    )
    return Table(
        ("decision", "cards", "share"),
        tuple((name, str(n), percent(n / decisions.decided)) for name, n in rows),
    )
