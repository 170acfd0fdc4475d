"""An inbound event's id, checked and recorded inside the transaction of its effect.

Recorded apart from its effect, an event id costs two more round trips (look it up
first, record it after) and leaves a window in which a redelivery is not yet known.
Inside the transaction, a duplicate is refused before anything changes, and the id is
kept only when the effect changed something: members react to every message of a
quiz channel, and those ids would be kept for nothing.

Each helper comes twice: for a SQLite transaction run on aiosqlite's thread (a plain
``sqlite3.Connection``), and for one awaited statement by statement (aiosqlite's or
PostgreSQL's session).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from bot.kernel.errors import DuplicateDelivery
from bot.kernel.models import Delivery

if TYPE_CHECKING:
    import aiosqlite

SEEN = "SELECT 1 FROM processed_events WHERE platform = ? AND event_id = ?"
RECORD = (
    "INSERT INTO processed_events (platform, event_id, processed_at) VALUES (?, ?, ?)"
    " ON CONFLICT (platform, event_id) DO NOTHING"
)


def _duplicate(delivery: Delivery) -> DuplicateDelivery:
    return DuplicateDelivery(f"{delivery.platform} event {delivery.event_id} was handled before")


def refuse_duplicate(conn: sqlite3.Connection, delivery: Delivery | None) -> None:
    if delivery is not None and conn.execute(SEEN, _key(delivery)).fetchone() is not None:
        raise _duplicate(delivery)


def record_delivery(conn: sqlite3.Connection, delivery: Delivery | None, now: str) -> None:
    if delivery is not None:
        conn.execute(RECORD, (*_key(delivery), now))


async def refuse_duplicate_in(conn: aiosqlite.Connection, delivery: Delivery | None) -> None:
    if delivery is not None and list(await conn.execute_fetchall(SEEN, _key(delivery))):
        raise _duplicate(delivery)


async def record_delivery_in(
    conn: aiosqlite.Connection, delivery: Delivery | None, now: str
) -> None:
    if delivery is not None:
        await conn.execute(RECORD, (*_key(delivery), now))


def _key(delivery: Delivery) -> tuple[str, str]:
    return delivery.platform, delivery.event_id
