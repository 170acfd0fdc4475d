"""The ``NoticeStore`` port on both backends, on the store's database object."""

from __future__ import annotations

from datetime import datetime

from bot.kernel.refs import ChannelRef
from bot.notices.store import Subscriber
from storage.sql.practice import DIRECT_NAME
from storage.sql.session import SqlDatabase
from storage.timestamps import to_db


class Notices:
    """Members' opt-in notices, per quiz channel."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def subscribe(
        self, channel_id: int, member_id: int, direct: ChannelRef, at: datetime
    ) -> bool:
        async with self._db.transaction() as session:
            was_on = await session.fetch_one(
                "SELECT 1 FROM notice_members WHERE channel_id = ? AND member_id = ?",
                (channel_id, member_id),
            )
            # the DM channel may have changed (a new DM): the latest one is kept
            await session.execute(
                "INSERT INTO notice_members (channel_id, member_id, platform, workspace,"
                " direct_channel, since) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (channel_id, member_id) DO UPDATE"
                " SET direct_channel = excluded.direct_channel",
                (
                    channel_id,
                    member_id,
                    direct.platform,
                    direct.workspace,
                    direct.channel_id,
                    to_db(at),
                ),
            )
        return was_on is None

    async def unsubscribe(self, channel_id: int, member_id: int) -> bool:
        async with self._db.transaction() as session:
            removed = await session.execute(
                "DELETE FROM notice_members WHERE channel_id = ? AND member_id = ?",
                (channel_id, member_id),
            )
        return removed == 1

    async def is_subscribed(self, channel_id: int, member_id: int) -> bool:
        row = await self._db.fetch_one(
            "SELECT 1 FROM notice_members WHERE channel_id = ? AND member_id = ?",
            (channel_id, member_id),
        )
        return row is not None

    async def subscribers(self, channel_id: int) -> list[Subscriber]:
        rows = await self._db.fetch(
            "SELECT member_id, platform, workspace, direct_channel FROM notice_members"
            " WHERE channel_id = ? ORDER BY since, member_id",
            (channel_id,),
        )
        return [Subscriber(row[0], ChannelRef(row[1], row[2], row[3], DIRECT_NAME)) for row in rows]
