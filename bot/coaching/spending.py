"""What ``/quiz stats`` shows an admin of the coach: the workspace's requests and tokens this
UTC month (the budgets count UTC days)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.coaching.setup import CoachSetup
from bot.coaching.store import CoachStore
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
