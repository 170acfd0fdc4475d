"""What recaps and ``/quiz me`` show of memory: mastery per topic and what comes due.

The learning loop (:class:`bot.learning.service.LearningService`) owns grades and memory cards;
charts and recaps only read these figures through :class:`TeamMemory`. With no grade
they are empty, and every chart and recap then says "no grades yet".

The recap's recall line is :meth:`TeamMemory.members_recall`: at each past moment, the
members' cards rebuilt from the grades they had given by then (each grade as it stands
now: a grade changed later counts with its new value, dated at the review it corrects),
so a point is what the model knew at that moment, not today's cards looked at backwards.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
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

    async def members_recall(
        self,
        member_ids: Collection[int],
        moments: Sequence[datetime],
        workspace: Workspace | None = None,
    ) -> list[float | None]:
        """For each moment, the mean expected recall (0-1) at that moment of every question
        these members had graded by then (their cards rebuilt from their grade log up to
        it); None where none had graded anything yet."""
        ...
