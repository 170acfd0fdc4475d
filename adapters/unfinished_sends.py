"""Cards sent as several messages, remembered until every part is out.

A long card is split over messages. When a later part fails (a 429, a 5xx, or
the process dies), the outbox retries the action; it first asks ``find_sent``,
which would find the first part and call the card sent, losing the rest. While
a card is unfinished, ``find_sent`` says "not sent", and the retried send skips
the parts already posted and resumes with the first missing one.

``quizbot run`` keeps this in the store (:class:`SendProgress`), so a restart
resumes too; :class:`UnfinishedSends` keeps it in memory for a platform built
without one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class SendProgress(Protocol):
    """Where the parts of unfinished multi-part sends are recorded, by outbox key."""

    async def unfinished_card(self, key: str) -> list[str] | None:
        """The message ids of the parts of ``key`` already posted, in order; None when
        ``key`` is not an unfinished multi-part send."""
        ...

    async def begin_card(self, key: str) -> None:
        """A multi-part send of ``key`` starts (unfinished until :meth:`finish_card`)."""
        ...

    async def record_card_part(self, key: str, message_id: str) -> None:
        """The next part of ``key`` was posted as ``message_id``."""
        ...

    async def finish_card(self, key: str) -> None: ...


@dataclass
class UnfinishedSends:
    """:class:`SendProgress` in memory: lost with the process."""

    _parts: dict[str, list[str]] = field(default_factory=dict)

    async def unfinished_card(self, key: str) -> list[str] | None:
        parts = self._parts.get(key)
        return None if parts is None else list(parts)

    async def begin_card(self, key: str) -> None:
        self._parts.setdefault(key, [])

    async def record_card_part(self, key: str, message_id: str) -> None:
        self._parts.setdefault(key, []).append(message_id)

    async def finish_card(self, key: str) -> None:
        self._parts.pop(key, None)
