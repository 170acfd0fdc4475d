"""The wall clock, for production; tests inject a fake one."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """The time source the core and the store use; tests inject a fake one."""

    def now(self) -> datetime:
        """The current time, timezone-aware, in UTC."""
        ...


class SystemClock:
    """The wall clock, in UTC: the one place the running bot reads the time."""

    def now(self) -> datetime:
        return datetime.now(UTC)
