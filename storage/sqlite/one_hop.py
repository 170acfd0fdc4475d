"""Several statements for one hand-off to aiosqlite's thread.

aiosqlite runs every call on its connection's own thread, and each call is a
round trip: queue the call, wake the thread, wake the event loop with the
result. A transaction of four statements costs eight thread switches, which
on a busy machine is most of an outbox action's or a reveal's latency. Here a
plain function runs the whole transaction on that thread, in one round trip.

aiosqlite has no public call for this: ``Connection._execute`` is the one its own
methods use to run a function on the thread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import TypeVar, cast

import aiosqlite

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]


def _in_transaction(work: Work[T], raw: sqlite3.Connection) -> T:
    raw.execute("BEGIN IMMEDIATE")
    try:
        result = work(raw)
        raw.execute("COMMIT")
    except BaseException:
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        raise
    return result


async def transact(conn: aiosqlite.Connection, work: Work[T]) -> T:
    """Run ``work`` in one write transaction on the connection's thread (the caller
    holds the store's lock)."""
    on_thread = cast(Callable[..., Awaitable[T]], conn._execute)
    return await on_thread(_in_transaction, work, conn._conn)
