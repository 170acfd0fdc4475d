"""Channels and small key/value facts (the ``ChannelStore`` and ``MetaStore`` ports).

A created or changed channel is announced in its transaction (``SqlDatabase.announce``)."""

from __future__ import annotations

from bot.kernel.models import ChannelSettings
from bot.kernel.refs import ChannelRef
from bot.kernel.stores import ChangeKind
from storage.errors import NotFoundError
from storage.records import (
    CHANNEL_COLUMNS,
    channel_from_columns,
    channel_from_row,
    channel_values,
)
from storage.sql.session import SqlDatabase

CHANNELS_PAGE = 1_000  # channels read by one statement of list_channels


class Channels:
    """The channels' quiz settings."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def get_channel(self, ref: ChannelRef) -> ChannelSettings | None:
        row = await self._db.fetch_one(
            f"SELECT {CHANNEL_COLUMNS} FROM channels"
            " WHERE platform = ? AND workspace = ? AND channel = ?",
            (ref.platform, ref.workspace, ref.channel_id),
        )
        return None if row is None else channel_from_row(row)

    async def get_channel_by_id(self, channel_id: int) -> ChannelSettings | None:
        row = await self._db.fetch_one(
            f"SELECT {CHANNEL_COLUMNS} FROM channels WHERE id = ?", (channel_id,)
        )
        return None if row is None else channel_from_row(row)

    async def create_channel(self, settings: ChannelSettings) -> ChannelSettings:
        values = channel_values(settings)
        columns = ", ".join(values)
        placeholders = ", ".join(f":{name}" for name in values)
        async with self._db.transaction() as session:
            inserted = await session.execute(
                f"INSERT INTO channels ({columns}) VALUES ({placeholders})"
                " ON CONFLICT (platform, workspace, channel) DO NOTHING",
                values,
            )
            rows = await session.fetch(
                f"SELECT {CHANNEL_COLUMNS} FROM channels"
                " WHERE platform = :platform AND workspace = :workspace"
                " AND channel = :channel",
                values,
            )
            created = channel_from_row(rows[0])
            if inserted:
                await self._db.announce(session, ChangeKind.CHANNEL, created.id)
        return created

    async def update_channel(
        self, before: ChannelSettings, after: ChannelSettings
    ) -> ChannelSettings:
        if before.id != after.id:
            raise ValueError(f"channel {after.id} changed from channel {before.id}'s settings")
        old = channel_values(before)
        changed = {
            name: value for name, value in channel_values(after).items() if value != old[name]
        }
        # With nothing of the row changed (a setting kept in another table was), the row is
        # read as it is and the change announced all the same.
        assignments = ", ".join(f"{name} = :{name}" for name in changed) or "name = name"
        async with self._db.transaction() as session:
            row = await session.fetch_one(
                f"UPDATE channels SET {assignments} WHERE id = :id RETURNING {CHANNEL_COLUMNS}",
                {**changed, "id": after.id},
            )
            if row is None:
                raise NotFoundError(f"no channel with id {after.id}")
            await self._db.announce(session, ChangeKind.CHANNEL, after.id)
        return channel_from_row(row)

    async def list_channels(self) -> list[ChannelSettings]:
        # A page at a time: the raw rows of 10,000 channels held at once (8 MB) were the
        # peak resident size of a start.
        page = f"SELECT {CHANNEL_COLUMNS} FROM channels ORDER BY id LIMIT ?"
        rows = await self._db.fetch(page, (CHANNELS_PAGE,))
        channels = [channel_from_columns(row) for row in rows]
        while len(rows) == CHANNELS_PAGE:
            rows = await self._db.fetch(
                f"SELECT {CHANNEL_COLUMNS} FROM channels WHERE id > ? ORDER BY id LIMIT ?",
                (channels[-1].id, CHANNELS_PAGE),
            )
            channels += (channel_from_columns(row) for row in rows)
        return channels


class Meta:
    """Small key/value facts of the installation, such as the hash of synced commands."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def get_meta(self, key: str) -> str | None:
        row = await self._db.fetch_one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self._db.change(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
