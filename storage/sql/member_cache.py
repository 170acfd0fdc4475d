"""The members' ids and names one store has read, shared by the aggregates that need it.

Answers look a member up on every event (``member_id``); the cache spares the write of an
unchanged name. An erasure (``/quiz forget me``) blanks the member's name and forgets the
member here, so the member seen again is named again at once. Another replica's erasure is
not heard: an entry stands for :data:`CACHED_FOR` at most, then the name is written again.
"""

from __future__ import annotations

from time import monotonic

CACHED_FOR = 600.0  # seconds
MemberKey = tuple[str, str, str]  # (platform, workspace, member)


class MemberCache:
    """Member keys to their store ids and names, each entry fresh for a while."""

    def __init__(self) -> None:
        self._entries: dict[MemberKey, tuple[int, str, float]] = {}

    def get(self, key: MemberKey) -> tuple[int, str] | None:
        """The member's id and cached name, while fresh."""
        entry = self._entries.get(key)
        if entry is None or monotonic() - entry[2] >= CACHED_FOR:
            return None
        return entry[0], entry[1]

    def put(self, key: MemberKey, member_id: int, name: str) -> None:
        self._entries[key] = (member_id, name, monotonic())

    def forget(self, member_id: int) -> None:
        """Drop every entry of the member (their name was erased)."""
        for key in [k for k, entry in self._entries.items() if entry[0] == member_id]:
            del self._entries[key]
