"""Cards sent as several messages, remembered until every part is out.

A long card is split over messages. When a later part fails (a 429, a 5xx),
the outbox retries the action; it first asks ``find_sent``, which would find
the first part and call the card sent, losing the rest. While a card is
unfinished in this process, ``find_sent`` says "not sent", and the retried
send skips the parts already posted and resumes with the first missing one.
"""

from __future__ import annotations


class UnfinishedSends:
    def __init__(self) -> None:
        self._parts: dict[str, list[str]] = {}

    def __contains__(self, key: str) -> bool:
        return key in self._parts

    def sent(self, key: str) -> list[str]:
        """The ids of the parts of ``key`` already posted, in order (empty: none)."""
        return list(self._parts.get(key, ()))

    def begin(self, key: str) -> None:
        """A multi-part send of ``key`` starts (it stays unfinished until :meth:`finish`)."""
        self._parts.setdefault(key, [])

    def record(self, key: str, message_id: str) -> None:
        self._parts.setdefault(key, []).append(message_id)

    def finish(self, key: str) -> None:
        self._parts.pop(key, None)
