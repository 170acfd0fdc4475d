"""Reads of the store that only tests make: the outbox actions of a round, and how often a
channel's rounds asked each question. The bot never needs them, so the store ports do not
declare them; they run on both backends through the store's own database object."""

from __future__ import annotations

from bot.kernel.models import OutboxAction
from storage.postgres.store import PostgresStore
from storage.records import OUTBOX_COLUMNS, action_from_row
from storage.sql.session import SqlDatabase
from storage.sqlite.store import SqliteStore


def _database(store: object) -> SqlDatabase:
    assert isinstance(store, SqliteStore | PostgresStore), type(store)
    return store.database


async def round_actions(store: object, round_id: int) -> list[OutboxAction]:
    """The round's outbox actions, in the order they were enqueued."""
    rows = await _database(store).fetch(
        f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE round_id = ? ORDER BY id", (round_id,)
    )
    return [action_from_row(row) for row in rows]


async def question_ask_counts(store: object, channel_id: int) -> dict[int, int]:
    """How many rounds of the channel asked each question id (absent: never)."""
    rows = await _database(store).fetch(
        "SELECT question_id, COUNT(*) FROM rounds WHERE channel_id = ? GROUP BY question_id",
        (channel_id,),
    )
    return {row[0]: row[1] for row in rows}


async def oauth_state_count(store: object) -> int:
    """How many OAuth states of installs in progress the store keeps."""
    rows = await _database(store).fetch("SELECT COUNT(*) FROM slack_oauth_states", ())
    return int(rows[0][0])
