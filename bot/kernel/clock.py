"""The wall clock, for production; tests inject a fake one."""

from __future__ import annotations

from datetime import UTC, datetime


class SystemClock:
    """The wall clock, in UTC: the one place the running bot reads the time."""

    def now(self) -> datetime:
        return datetime.now(UTC)
