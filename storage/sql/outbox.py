"""The outbox of actions waiting to be sent (the ``OutboxStore`` port): the statements
both backends share. Queuing, claiming and finishing an action differ (SQLite: one
process and one-hop transactions; PostgreSQL: leases among replicas), so each backend's
subclass implements those.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from datetime import datetime

from bot.kernel.models import ActionKind, OutboxAction, OutboxDraft, PruneBatch
from storage.errors import NotFoundError
from storage.outbox_queries import DONE_ACTIONS_BEFORE
from storage.records import draft_row
from storage.sql.session import Session, SqlDatabase
from storage.timestamps import to_db

MAX_ERROR_LENGTH = 2000
_PASS_START = ("", 0)  # before every (next_attempt_at, id)


_QUEUE_DRAFT = (
    "INSERT INTO outbox (round_id, kind, key, target_platform, target_workspace,"
    " target_channel, card, state, attempts, next_attempt_at, created_at, updated_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?) ON CONFLICT (key) DO NOTHING"
)


def clip_error(error: str) -> str:
    return error if len(error) <= MAX_ERROR_LENGTH else error[: MAX_ERROR_LENGTH - 1] + "…"


async def queue_in(session: Session, drafts: Sequence[OutboxDraft], now: str) -> None:
    """Queue the drafts' actions in the open transaction of what causes them (a key
    already queued stays as it is): committed with their cause, or not at all."""
    for draft in drafts:
        await session.execute(_QUEUE_DRAFT, (*draft_row(draft, now), now, now))


class OutboxQueries(ABC):
    """The actions each round (or a direct send) queues, and their sends."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db
        self._prune_cursor = _PASS_START  # where the current retention pass has got to

    # what each backend does its own way

    @abstractmethod
    async def enqueue(self, drafts: Sequence[OutboxDraft], at: datetime) -> int: ...

    @abstractmethod
    async def due_actions(
        self, now: datetime, limit: int = 100, *, platforms: Collection[str] | None = None
    ) -> list[OutboxAction]: ...

    @abstractmethod
    async def next_due_after(
        self, after: datetime, *, platforms: Collection[str] | None = None
    ) -> datetime | None: ...

    @abstractmethod
    async def postpone_actions(
        self, action_ids: Sequence[int], until: datetime, *, at: datetime
    ) -> None: ...

    @abstractmethod
    async def begin_attempt(self, action_id: int, at: datetime) -> OutboxAction | None: ...

    @abstractmethod
    async def complete_action(
        self, action_id: int, result_ref: str | None, at: datetime
    ) -> None: ...

    @abstractmethod
    async def complete_and_begin(
        self, done_id: int, result_ref: str | None, next_id: int, at: datetime
    ) -> OutboxAction | None: ...

    @abstractmethod
    async def retry_action(
        self, action_id: int, error: str, next_attempt_at: datetime, *, at: datetime
    ) -> None: ...

    @abstractmethod
    async def fail_action(self, action_id: int, error: str, at: datetime) -> None: ...

    # shared

    async def prune_done_actions(self, before: datetime, limit: int) -> PruneBatch:
        # A follow-ups action of a round not revealed yet stays: the reveal enqueues
        # follow-ups again and only the existing key stops a second post. Open rounds
        # keep theirs too (a first answer enqueues follow-ups). A direct action (no round)
        # goes once it is old: its key names a step or a day that never comes again.
        cutoff = to_db(before)
        after_at, after_id = self._prune_cursor
        rows = await self._db.fetch(
            DONE_ACTIONS_BEFORE,
            {"cutoff": cutoff, "after_at": after_at, "after_id": after_id, "limit": limit},
        )
        doomed = [
            row["id"]
            for row in rows
            if row["updated_at"] < cutoff
            and (
                row["round_id"] is None
                or (
                    row["state"] == "closed"
                    and (
                        row["kind"] != ActionKind.FOLLOW_UPS.value or row["revealed_at"] is not None
                    )
                )
            )
        ]
        more = len(rows) == limit
        self._prune_cursor = (rows[-1]["next_attempt_at"], rows[-1]["id"]) if more else _PASS_START
        if doomed:
            marks = ", ".join("?" * len(doomed))
            await self._db.change(f"DELETE FROM outbox WHERE id IN ({marks})", doomed)
        return PruneBatch(deleted=len(doomed), more=more)

    async def fail_channel_actions(self, channel_id: int, error: str, at: datetime) -> int:
        return await self._db.change(
            "UPDATE outbox SET state = 'failed', last_error = ?, updated_at = ?"
            " WHERE state = 'pending'"
            " AND round_id IN (SELECT id FROM rounds WHERE channel_id = ?)",
            (clip_error(error), to_db(at), channel_id),
        )

    async def outbox_counts(self) -> dict[str, int]:
        rows = await self._db.fetch("SELECT state, COUNT(*) AS n FROM outbox GROUP BY state")
        return {row["state"]: row["n"] for row in rows}

    async def _require_action(self, action_id: int) -> None:
        if await self._db.fetch_one("SELECT 1 FROM outbox WHERE id = ?", (action_id,)) is None:
            raise NotFoundError(f"no outbox action with id {action_id}")
