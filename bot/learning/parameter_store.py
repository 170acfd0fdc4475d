"""The fitted parameters' seam: a workspace's pooled review log, and every fit made of it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.learning.parameter_fit import FitOutcome, Review


@dataclass(frozen=True, slots=True)
class FitRecord:
    """One fit of a workspace's log, kept or not, as stored."""

    platform: str
    workspace: str
    fitted_at: datetime
    reason: str  # what started it: "weekly", "erasure", "start"
    outcome: FitOutcome


class FittedParameterStore(Protocol):
    """Persistence of fits. Every write is committed before the call returns."""

    async def workspaces_with_grades(self) -> list[tuple[str, str]]:
        """(platform, workspace) of every workspace whose members have a current grade."""
        ...

    async def pooled_reviews(self, platform: str, workspace: str) -> list[Review]:
        """Every current grade of the workspace's members (a changed grade as it stands,
        dated at the review it corrects), as reviews of (member, question) cards."""
        ...

    async def record_fit(self, record: FitRecord) -> None: ...

    async def in_use(self, platform: str, workspace: str) -> FitRecord | None:
        """The workspace's newest kept fit; None: FSRS's defaults are in use."""
        ...

    async def fits(self, platform: str, workspace: str, limit: int = 5) -> list[FitRecord]:
        """The workspace's latest fits, kept or not, newest first."""
        ...
