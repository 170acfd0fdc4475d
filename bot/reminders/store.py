"""The reminders aggregate's seam: each member's daily review reminder.

A member has at most one reminder: a local time in a timezone, and the DM channel it is
sent to. Which days it was sent on is the outbox's business (one action per member and
local date, keyed ``remind:<member>:<date>``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.kernel.refs import ChannelRef


@dataclass(frozen=True, slots=True)
class Reminder:
    """A member's daily reminder: at ``local_time`` (HH:MM) in ``timezone``, to ``direct``."""

    member_id: int
    direct: ChannelRef  # the member's DM channel with the bot
    local_time: str
    timezone: str


class ReminderStore(Protocol):
    """Persistence of reminders. Every write is committed before the call returns."""

    async def reminder(self, member_id: int) -> Reminder | None: ...

    async def reminders(self) -> list[Reminder]:
        """Every member's reminder (start-up rebuilds the schedule from them)."""
        ...

    async def set_reminder(self, reminder: Reminder, at: datetime) -> None:
        """Add or replace the member's reminder (``at``: the stored time of the change)."""
        ...

    async def clear_reminder(self, member_id: int) -> bool:
        """Remove the member's reminder; False when there was none."""
        ...
