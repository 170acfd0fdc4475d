"""Channels and small key/value facts on SQLite (the ``ChannelStore`` port)."""

from __future__ import annotations

import aiosqlite

from bot.kernel.models import (
    ChannelSettings,
)
from bot.kernel.refs import ChannelRef
from storage.errors import NotFoundError
from storage.records import (
    CHANNEL_COLUMNS,
    channel_from_row,
    channel_values,
)
from storage.sqlite_connection import SqliteConnection


class SqliteChannels(SqliteConnection):
    """The channels' quiz settings, and facts such as the hash of synced commands."""

    # channels

    async def get_channel(self, ref: ChannelRef) -> ChannelSettings | None:
        row = await self._fetch_one(
            f"SELECT {CHANNEL_COLUMNS} FROM channels"
            " WHERE platform = ? AND workspace = ? AND channel = ?",
            (ref.platform, ref.workspace, ref.channel_id),
        )
        return None if row is None else channel_from_row(row)

    async def get_channel_by_id(self, channel_id: int) -> ChannelSettings | None:
        row = await self._fetch_one(
            f"SELECT {CHANNEL_COLUMNS} FROM channels WHERE id = ?", (channel_id,)
        )
        return None if row is None else channel_from_row(row)

    async def create_channel(self, settings: ChannelSettings) -> ChannelSettings:
        values = channel_values(settings)
        columns = ", ".join(values)
        placeholders = ", ".join(f":{name}" for name in values)
        async with self._transaction() as conn:
            inserted = await conn.execute(
                f"INSERT INTO channels ({columns}) VALUES ({placeholders})"
                " ON CONFLICT (platform, workspace, channel) DO NOTHING",
                values,
            )
            rows = list(
                await conn.execute_fetchall(
                    f"SELECT {CHANNEL_COLUMNS} FROM channels"
                    " WHERE platform = :platform AND workspace = :workspace"
                    " AND channel = :channel",
                    values,
                )
            )
            created = channel_from_row(rows[0])
            if inserted.rowcount:
                await self._announce_channel(conn, created.id)
        return created

    async def update_channel(self, settings: ChannelSettings) -> None:
        values = channel_values(settings)
        assignments = ", ".join(f"{name} = :{name}" for name in values)
        async with self._transaction() as conn:
            changed = await conn.execute(
                f"UPDATE channels SET {assignments} WHERE id = :id", {**values, "id": settings.id}
            )
            if changed.rowcount == 0:
                raise NotFoundError(f"no channel with id {settings.id}")
            await self._announce_channel(conn, settings.id)

    async def _announce_channel(self, conn: aiosqlite.Connection, channel_id: int) -> None:
        """Tell other processes sharing the store that the channel changed, in the
        transaction that changes it. SQLite has one process: nobody to tell."""
        return None

    async def list_channels(self) -> list[ChannelSettings]:
        rows = await self._fetch(f"SELECT {CHANNEL_COLUMNS} FROM channels ORDER BY id")
        return [channel_from_row(row) for row in rows]

    # small key/value facts

    async def get_meta(self, key: str) -> str | None:
        row = await self._fetch_one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self._change(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
