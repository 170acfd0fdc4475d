"""The parts of multi-part sends not yet complete (``SendProgress`` of
``adapters.unfinished_sends``): a restart resumes a long card after its sent parts.

Appending a part to the JSON list is each backend's own statement (``APPEND_PART``)."""

from __future__ import annotations

import json

from storage.sql.session import SqlDatabase


class UnfinishedCards:
    """Which parts of each unfinished long card were posted, by outbox key.

    ``append_part`` takes (key, message id, message id): it inserts the key with a
    one-part list or appends the part to the list it has."""

    def __init__(self, db: SqlDatabase, append_part: str) -> None:
        self._db = db
        self._append_part = append_part

    async def unfinished_card(self, key: str) -> list[str] | None:
        row = await self._db.fetch_one(
            "SELECT message_ids FROM unfinished_cards WHERE key = ?", (key,)
        )
        return None if row is None else [str(part) for part in json.loads(row[0])]

    async def begin_card(self, key: str) -> None:
        await self._db.change(
            "INSERT INTO unfinished_cards (key) VALUES (?) ON CONFLICT (key) DO NOTHING", (key,)
        )

    async def record_card_part(self, key: str, message_id: str) -> None:
        await self._db.change(self._append_part, (key, message_id, message_id))

    async def finish_card(self, key: str) -> None:
        await self._db.change("DELETE FROM unfinished_cards WHERE key = ?", (key,))
