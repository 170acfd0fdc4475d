"""The away aggregate's seam: members' periods away, by workspace.

A member is named by the platform's ids (``MemberRef.workspace`` and
``MemberRef.member_id``): away covers all their channels of that workspace.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date, datetime
from typing import Protocol

from bot.away.periods import AwayPeriod


class AwayStore(Protocol):
    """Persistence of away periods. Every write is committed before the call returns."""

    async def until(self, workspace_id: str, member_id: str) -> date | None:
        """The last local date (inclusive) of the member's latest period away; None when
        they were never away. Away on a day exactly when :func:`bot.away.periods.is_away`
        says so."""
        ...

    async def set(
        self, workspace_id: str, member_id: str, first: date, last: date, at: datetime
    ) -> None:
        """Away from ``first`` through ``last``: a period still running on ``first`` (or
        ending the day before) is given the new end; otherwise a new one starts."""
        ...

    async def clear(self, workspace_id: str, member_id: str, today: date, at: datetime) -> bool:
        """Back today: a period running today ends yesterday (one that began today is
        removed). False when the member was not away today or later."""
        ...

    async def periods(
        self, workspace_id: str, member_ids: Collection[str]
    ) -> dict[str, list[AwayPeriod]]:
        """Each member's periods, oldest first (members never away are left out)."""
        ...

    async def until_for_member(self, member_key: int) -> date | None:
        """``until`` of the member whose store id (``MemberIds``) is ``member_key``."""
        ...

    async def away_among(self, member_keys: Sequence[int], day: date) -> frozenset[int]:
        """Those of ``member_keys`` (store ids) away on ``day`` (today or later): one read
        for a whole channel's subscribers."""
        ...

    async def member_workspaces(self, platform: str, member_id: str) -> list[str]:
        """The workspaces of ``platform`` the bot knows the member in (a setting made in
        direct messages, where no workspace is named, applies in each)."""
        ...
