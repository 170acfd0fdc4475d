"""The wall clock, for production; tests inject a fake one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
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


class ShiftedClock:
    """The wall clock moved on by the time a console script let pass (``:wait``): it runs
    as the wall clock does, from the moment it was last set to."""

    def __init__(self) -> None:
        self._offset = timedelta(0)

    def now(self) -> datetime:
        return datetime.now(UTC) + self._offset

    def set(self, moment: datetime) -> None:
        self._offset = moment - datetime.now(UTC)
