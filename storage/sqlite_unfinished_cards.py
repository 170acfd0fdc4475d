"""The parts of multi-part sends not yet complete, on SQLite (``SendProgress`` of
``adapters.unfinished_sends``): a restart resumes a long card after its sent parts."""

from __future__ import annotations

import json

from storage.sqlite_connection import SqliteConnection


class SqliteUnfinishedCards(SqliteConnection):
    """Which parts of each unfinished long card were posted, by outbox key."""

    async def unfinished_card(self, key: str) -> list[str] | None:
        row = await self._fetch_one(
            "SELECT message_ids FROM unfinished_cards WHERE key = ?", (key,)
        )
        return None if row is None else [str(part) for part in json.loads(row[0])]

    async def begin_card(self, key: str) -> None:
        await self._change(
            "INSERT INTO unfinished_cards (key) VALUES (?) ON CONFLICT (key) DO NOTHING", (key,)
        )

    async def record_card_part(self, key: str, message_id: str) -> None:
        await self._change(
            "INSERT INTO unfinished_cards (key, message_ids) VALUES (?, json_array(?))"
            " ON CONFLICT (key) DO UPDATE"
            " SET message_ids = json_insert(unfinished_cards.message_ids, '$[#]', ?)",
            (key, message_id, message_id),
        )

    async def finish_card(self, key: str) -> None:
        await self._change("DELETE FROM unfinished_cards WHERE key = ?", (key,))
