"""What recaps and ``/quiz me`` show of memory: mastery per topic and what comes due.

The learning loop (:class:`bot.learning.service.LearningService`) owns grades and memory cards;
charts and recaps only read these figures through :class:`TeamMemory`. With no grade
they are empty, and every chart and recap then says "no grades yet".
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.bank.store import Workspace


class TeamMemory(Protocol):
    """The memory figures recaps and ``/quiz me`` read: mastery per topic, what comes due."""

    async def channel_mastery(
        self, channel_id: int, at: datetime, workspace: Workspace | None = None
    ) -> dict[str, float]:
        """Mean expected recall (0-1) 30 days after ``at`` of the channel's graded
        questions, per topic."""
        ...

    async def channel_due(
        self, channel_id: int, start: datetime, end: datetime, workspace: Workspace | None = None
    ) -> dict[str, int]:
        """How many of the channel's graded questions come due in [start, end), per topic."""
        ...

    async def member_mastery(
        self, member_id: int, at: datetime, workspace: Workspace | None = None
    ) -> dict[str, float]:
        """Mean expected recall (0-1) of the member's graded questions on their target date
        (their goal, or 30 days after ``at``), per topic."""
        ...
