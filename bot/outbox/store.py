"""The outbox's store port."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Protocol, runtime_checkable

from bot.kernel.models import (
    OutboxAction,
    OutboxDraft,
    PruneBatch,
)


class OutboxStore(Protocol):
    """The outbox: every platform side effect as a stored action, claimed, attempted,
    retried and completed."""

    async def enqueue(self, drafts: Sequence[OutboxDraft], at: datetime) -> int:
        """Insert actions whose key is new; returns how many were inserted."""
        ...

    async def due_actions(
        self, now: datetime, limit: int = 100, *, platforms: Collection[str] | None = None
    ) -> list[OutboxAction]:
        """Pending actions whose next attempt is due, oldest first; with ``platforms``,
        only those of channels on these platforms. A backend shared by several replicas
        claims what it returns for a lease, so the others skip those actions until
        the lease ends or the action is retried, failed or completed."""
        ...

    async def next_due_after(
        self, after: datetime, *, platforms: Collection[str] | None = None
    ) -> datetime | None:
        """The earliest time after ``after`` when a pending action (of channels on
        ``platforms``) falls due; None when none does."""
        ...

    async def prune_done_actions(self, before: datetime, limit: int) -> PruneBatch:
        """Delete completed actions older than ``before`` that nothing can enqueue again,
        scanning at most ``limit`` of them; call again while ``more`` is True."""
        ...

    async def postpone_actions(
        self, action_ids: Sequence[int], until: datetime, *, at: datetime
    ) -> None:
        """Make the pending ones of these actions due at ``until``, counting no attempt
        (the platform's pacing takes no message to their channel before then)."""
        ...

    async def begin_attempt(self, action_id: int, at: datetime) -> OutboxAction | None:
        """Count an attempt before sending; returns the action with its new attempt count,
        or None when it is not this process's to send any more: no longer pending, or
        (replicas) another replica took it over after this one's claim ran out."""
        ...

    async def complete_action(self, action_id: int, result_ref: str | None, at: datetime) -> None:
        """Mark done and store the result; a QUESTION result becomes the round's
        ``question_message``, a THREAD result its ``thread``."""
        ...

    async def complete_and_begin(
        self, done_id: int, result_ref: str | None, next_id: int, at: datetime
    ) -> OutboxAction | None:
        """:meth:`complete_action` of one action and :meth:`begin_attempt` of the next, in
        one transaction (one round trip where a round sends several actions); None, as
        from ``begin_attempt``, when the next is no longer this process's to send."""
        ...

    async def retry_action(
        self, action_id: int, error: str, next_attempt_at: datetime, *, at: datetime
    ) -> None: ...

    async def fail_action(self, action_id: int, error: str, at: datetime) -> None: ...

    async def fail_channel_actions(self, channel_id: int, error: str, at: datetime) -> int: ...

    async def outbox_counts(self) -> dict[str, int]:
        """Outbox actions of every channel by state ("pending", "done", "failed")."""
        ...


@runtime_checkable
class LeasedClaims(Protocol):
    """A store whose ``due_actions`` claims what it returns for a lease (replicas): an
    action another replica claimed falls due again when its lease ends."""

    @property
    def outbox_lease(self) -> timedelta:
        """How long a claim holds an action off the other replicas."""
        ...
