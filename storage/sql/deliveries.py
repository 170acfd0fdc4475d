"""Inbound event ids already handled (the ``DeliveryStore`` port), and an event's id
checked and recorded inside the transaction of its effect.

Recorded apart from its effect, an event id costs two more round trips (look it up
first, record it after) and leaves a window in which a redelivery is not yet known.
Inside the transaction, a duplicate is refused before anything changes, and the id is
kept only when the effect changed something: members react to every message of a
quiz channel, and those ids would be kept for nothing. (SQLite's one-hop transactions
do the same on aiosqlite's thread: ``storage.sqlite.on_thread``.)
"""

from __future__ import annotations

import itertools
from datetime import datetime

from bot.kernel.errors import DuplicateDelivery
from bot.kernel.models import Delivery, PruneBatch
from storage.outbox_queries import OLDEST_EVENTS
from storage.sql.session import Session, SqlDatabase
from storage.timestamps import to_db

SEEN = "SELECT 1 FROM processed_events WHERE platform = ? AND event_id = ?"
RECORD = (
    "INSERT INTO processed_events (platform, event_id, processed_at) VALUES (?, ?, ?)"
    " ON CONFLICT (platform, event_id) DO NOTHING"
)


def duplicate(delivery: Delivery) -> DuplicateDelivery:
    return DuplicateDelivery(f"{delivery.platform} event {delivery.event_id} was handled before")


def delivery_key(delivery: Delivery) -> tuple[str, str]:
    return delivery.platform, delivery.event_id


async def refuse_duplicate_in(session: Session, delivery: Delivery | None) -> None:
    if delivery is not None and await session.fetch_one(SEEN, delivery_key(delivery)) is not None:
        raise duplicate(delivery)


async def record_delivery_in(session: Session, delivery: Delivery | None, now: str) -> None:
    if delivery is not None:
        await session.execute(RECORD, (*delivery_key(delivery), now))


class Deliveries:
    """The inbound event ids seen, so a redelivered event is dropped."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def mark_event_processed(self, platform: str, event_id: str, at: datetime) -> bool:
        changed = await self._db.change(RECORD, (platform, event_id, to_db(at)))
        return changed == 1

    async def event_processed(self, platform: str, event_id: str) -> bool:
        return await self._db.fetch_one(SEEN, (platform, event_id)) is not None

    async def prune_events(self, before: datetime, limit: int) -> PruneBatch:
        cutoff = to_db(before)
        rows = await self._db.fetch(OLDEST_EVENTS, (limit,))
        old = list(itertools.takewhile(lambda row: row["processed_at"] < cutoff, rows))
        if old:
            await self._db.change("DELETE FROM processed_events WHERE id <= ?", (old[-1]["id"],))
        return PruneBatch(deleted=len(old), more=len(old) == limit)
