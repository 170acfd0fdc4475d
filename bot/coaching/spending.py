"""What ``/quiz stats`` shows an admin of the coach: the workspace's requests and tokens this
UTC month (the budgets count UTC days)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.coach.agreement import STAND_IN_ANSWERS, STAND_IN_PRECISION, agreement
from bot.coaching.setup import CoachSetup
from bot.coaching.store import CoachStore
from bot.kernel.cards import percent, plural
from bot.kernel.models import ChannelSettings


class CoachSpendingReport:
    """Offers ``bot.rounds.stats_sources.CoachSpending``."""

    def __init__(self, coach: CoachStore, setup: CoachSetup | None) -> None:
        self._coach = coach
        self._setup = setup

    async def this_month(self, channel: ChannelSettings, now: datetime) -> tuple[int, int] | None:
        if self._setup is None:
            return None
        first = now.astimezone(UTC).date().replace(day=1)
        return await self._coach.month_usage(channel.ref.platform, channel.ref.workspace, first)

    async def agreement(self, channel: ChannelSettings) -> str | None:
        """How the coach's ticks compare with teammates' in the channel, and whether that
        meets the stand-in rule; None without a coach or any answer both judged."""
        if self._setup is None:
            return None
        measured = agreement(await self._coach.judged_by_both(channel.id))
        if not measured.answers:
            return None
        shown = [
            f"precision {percent(measured.precision)}" if measured.precision is not None else "",
            f"recall {percent(measured.recall)}" if measured.recall is not None else "",
        ]
        rule = "meets" if measured.meets_the_stand_in_rule else "does not meet"
        return (
            f"{', '.join(s for s in shown if s) or 'no ticks'} on"
            f" {plural(measured.answers, 'answer')} both judged; {rule} the stand-in rule"
            f" ({percent(STAND_IN_PRECISION)} each on {STAND_IN_ANSWERS} answers)"
        )
