"""Timestamps as stored: ISO-8601 UTC text of one fixed width, so text order is time order.

``2026-03-02T09:30:00.000000Z`` — portable to any SQL database and readable in a shell.
"""

from __future__ import annotations

from datetime import UTC, datetime

_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_WIDTH = len("2026-03-02T09:30:00.000000Z")


def to_db(moment: datetime) -> str:
    """The stored text of an aware datetime; a naive one is refused (its zone is unknown)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment.isoformat()!r}: pass a timezone-aware time")
    if moment.year < 1000:
        raise ValueError(f"datetime {moment.isoformat()!r} is before the year 1000")
    return moment.astimezone(UTC).strftime(_FORMAT)


def optional_to_db(moment: datetime | None) -> str | None:
    return None if moment is None else to_db(moment)


def from_db(text: str) -> datetime:
    """The aware UTC datetime of a stored timestamp."""
    if len(text) == _WIDTH and text[-1] == "Z" and text[10] == "T":
        # fromisoformat is about ten times faster than strptime (start-up reads one per
        # channel), and reads the Z itself as UTC: the same value, without a copy to replace it
        return datetime.fromisoformat(text)
    return datetime.strptime(text, _FORMAT).replace(tzinfo=UTC)  # its error says what is wrong


def optional_from_db(text: str | None) -> datetime | None:
    return None if text is None else from_db(text)
