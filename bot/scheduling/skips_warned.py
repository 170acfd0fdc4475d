"""How far back skipped slots were already warned about, kept with the store's facts.

A slot skipped after downtime (older than its grace window) leaves nothing behind, so
without this mark every later start would warn about the same slots again.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from bot.kernel.stores import MetaStore


class SkipsWarned:
    """The newest skipped slot of one kind (question slots, recaps) already warned about."""

    def __init__(self, meta: MetaStore, key: str) -> None:
        self._meta = meta
        self._key = key  # its value: the slot's time, ISO

    async def through(self) -> datetime | None:
        stored = await self._meta.get_meta(self._key)
        return None if stored is None else datetime.fromisoformat(stored)

    async def warned(self, slots: Iterable[datetime]) -> None:
        """The warning about ``slots`` is out: the newest of them is the new mark."""
        newest = max(slots, default=None)
        if newest is not None:
            await self._meta.set_meta(self._key, newest.isoformat())
