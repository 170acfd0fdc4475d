"""When a round's timed step (reveal-after, last call) is due now, from the channel's
settings as they are and the skipped days it may wait past (see :mod:`bot.rounds.timed`)."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from bot.kernel.models import ChannelSettings, OutboxAction, Round
from bot.rounds.timed import due_again, waits_for_the_next_question
from bot.scheduling.skipped_days import SkippedDayStore


class TimedSteps:
    """Reads the skipped days a timed step waits past, and when it is due again."""

    def __init__(self, skipped_days: SkippedDayStore) -> None:
        self._skipped_days = skipped_days

    async def due_again(
        self, action: OutboxAction, round_: Round, channel: ChannelSettings
    ) -> datetime | None:
        """When the step is due with the channel's settings as they are now; None: never."""
        return due_again(
            action.kind, channel, round_, await self.skipped_days(action, round_, channel)
        )

    async def skipped_days(
        self, action: OutboxAction, round_: Round, channel: ChannelSettings
    ) -> list[date]:
        """The skipped days that move a timed step (none unless it waits for the next
        scheduled question)."""
        if not waits_for_the_next_question(action.kind, channel):
            return []
        since = round_.created_at.astimezone(ZoneInfo(channel.timezone)).date()
        return await self._skipped_days.skipped_days(channel.id, since)
