"""The ``ReminderStore`` port on both backends, on the store's database object; each
change is announced in its transaction (on PostgreSQL, to the other replicas).
"""

from __future__ import annotations

from datetime import datetime

from bot.kernel.refs import ChannelRef
from bot.kernel.stores import ChangeKind
from bot.reminders.store import Reminder
from storage.sql.practice import DIRECT_NAME
from storage.sql.session import Row, SqlDatabase
from storage.timestamps import to_db

_COLUMNS = "member_id, platform, workspace, direct_channel, local_time, timezone"


class Reminders:
    """Members' daily review reminders."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def reminder(self, member_id: int) -> Reminder | None:
        rows = await self._db.fetch(
            f"SELECT {_COLUMNS} FROM reminders WHERE member_id = ?", (member_id,)
        )
        return _reminder(rows[0]) if rows else None

    async def reminders(self) -> list[Reminder]:
        rows = await self._db.fetch(f"SELECT {_COLUMNS} FROM reminders ORDER BY member_id", ())
        return [_reminder(row) for row in rows]

    async def set_reminder(self, reminder: Reminder, at: datetime) -> None:
        direct = reminder.direct
        async with self._db.transaction() as session:
            await session.execute(
                f"INSERT INTO reminders ({_COLUMNS}, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (member_id) DO UPDATE SET platform = excluded.platform,"
                " workspace = excluded.workspace, direct_channel = excluded.direct_channel,"
                " local_time = excluded.local_time, timezone = excluded.timezone,"
                " updated_at = excluded.updated_at",
                (
                    reminder.member_id,
                    direct.platform,
                    direct.workspace,
                    direct.channel_id,
                    reminder.local_time,
                    reminder.timezone,
                    to_db(at),
                ),
            )
            await self._db.announce(session, ChangeKind.REMINDER, reminder.member_id)

    async def clear_reminder(self, member_id: int) -> bool:
        async with self._db.transaction() as session:
            changed = await session.execute(
                "DELETE FROM reminders WHERE member_id = ?", (member_id,)
            )
            if changed != 1:
                return False
            await self._db.announce(session, ChangeKind.REMINDER, member_id)
            return True


def _reminder(row: Row) -> Reminder:
    member_id, platform, workspace, channel, local_time, timezone = tuple(row)
    return Reminder(
        member_id, ChannelRef(platform, workspace, channel, DIRECT_NAME), local_time, timezone
    )
