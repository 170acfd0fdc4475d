"""A member's id in the store, the one thing most features ask of the members' records."""

from __future__ import annotations

from typing import Protocol

from bot.kernel.refs import MemberRef


class MemberIds(Protocol):
    """The store's id of a member, created on first sight (``store.members`` offers it)."""

    async def member_id(self, ref: MemberRef) -> int: ...
