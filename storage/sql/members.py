"""Members' store ids (the ``MemberIds`` port, ``store.members``): a member is created on
first sight and their display name kept up to date; the ids and names read are cached
(:class:`~storage.sql.member_cache.MemberCache`), shared with the aggregates that need them."""

from __future__ import annotations

from bot.kernel.refs import MemberRef
from storage.sql.member_cache import MemberCache
from storage.sql.session import SqlDatabase


class Members:
    """The members table: each member's id, created on first sight."""

    def __init__(self, db: SqlDatabase, cache: MemberCache) -> None:
        self._db = db
        self.cache = cache
        # ids this store wrote or read: a member is never deleted (an erasure blanks the
        # name), so an answer naming one of these needs no look-up before it is written
        self.known: set[int] = set()

    async def member_id(self, ref: MemberRef) -> int:
        key = (ref.platform, ref.workspace, ref.member_id)
        cached = self.cache.get(key)
        if cached is not None and ref.display_name in ("", cached[1]):
            return cached[0]
        rows = await self._db.fetch(
            "INSERT INTO members (platform, workspace, member, display_name)"
            " VALUES (?, ?, ?, ?)"
            " ON CONFLICT (platform, workspace, member) DO UPDATE SET display_name ="
            " CASE WHEN excluded.display_name = '' THEN members.display_name"
            " ELSE excluded.display_name END"
            " RETURNING id, display_name",
            (*key, ref.display_name),
        )
        member_id, name = int(rows[0][0]), str(rows[0][1])
        self.cache.put(key, member_id, name)
        self.known.add(member_id)
        return member_id
