"""The member-data aggregate's seam: a member's rows across the quiz's tables, read for an
export and deleted for an erasure, a channel's rows for an admin's export, and the goals a
lead's readiness view lists.

An export is plain rows (column name to value) per table, naming no other member. An
erasure is one transaction: every table that holds the member's data is declared erased by
the feature that owns it (its face, ``bot/<feature>/feature.py``), and each table that names
a member but is kept is declared kept, with the reason; :data:`bot.features.ERASED_TABLES`
and :data:`bot.features.KEPT_TABLES` gather them, and a test fails for a table in neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Protocol

from bot.kernel.refs import ChannelRef, MemberRef

Rows = list[dict[str, Any]]
Tables = dict[str, Rows]

# The tables of a channel an admin's export writes.
CHANNEL_TABLES: tuple[str, ...] = ("rounds", "answers", "votes", "grades", "reviews")


@dataclass(frozen=True, slots=True)
class Erased:
    """What an erasure deleted: rows per table (tables with none left out)."""

    member_id: int
    rows: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.rows.values())


@dataclass(frozen=True, slots=True)
class MemberGoal:
    """A member of the workspace who set a goal date."""

    member_id: int
    member: str  # the platform's member id
    name: str
    goal: date


class MemberDataStore(Protocol):
    """Persistence of a member's data as a whole. Every write is committed before the call
    returns."""

    async def find_member(self, ref: MemberRef) -> int | None:
        """The member's id, None when the quiz has never stored anything of them."""
        ...

    async def members_named(self, member: str) -> list[tuple[int, MemberRef]]:
        """Every stored member whose platform id is ``member``, on any platform and in any
        workspace (an admin's erasure names a member by that id)."""
        ...

    async def member_tables(self, member_id: int) -> Tables:
        """Every row of the member's data, per table (``bot.features.ERASED_TABLES`` and their goal,
        settings, mock interviews and the member row itself), naming no other member: no
        id that leads to one is in it (``pair_groups``: their weeks and how many partners;
        a grade a partner's rating gave has ``source`` = ``pair_rating``)."""
        ...

    async def erase_member(
        self, member_id: int, at: datetime, directs: Sequence[ChannelRef] = ()
    ) -> Erased:
        """Delete the member's data in every table, in one transaction; ``directs``: their
        direct-message channels as the platform knows them (those of their reminder and
        practice sessions are found in the store). Each deleted answer's message is marked
        handled at ``at``, so a platform replaying it (Discord's catch-up reads open
        rounds' threads back, with the message id as the event id) does not record it
        again, and kept as erased (``erased_answers``: round and message id), so the same
        message delivered under any other event id, or edited, stores nothing either."""
        ...

    async def channel_tables(self, channel_id: int) -> Tables:
        """The channel's rounds, answers, votes, grades and reviews, per table."""
        ...

    async def member_channels(self, member_id: int) -> list[int]:
        """The channels the member answered in, most answers first."""
        ...

    async def workspace_goals(self, platform: str, workspace: str) -> list[MemberGoal]:
        """The members of the workspace with a goal date, the nearest first."""
        ...
