"""When a channel began to owe its scheduled questions.

A channel owes a slot's question from the moment it was set up with a schedule, given
another schedule or timezone, resumed, or enabled again. A slot before that moment was
never owed (the channel did not exist yet, had another schedule, was paused or
disabled), so after downtime it is neither posted late nor counted as missed. The moment
is kept with the store's facts, one per channel; a channel set up before it was kept has
none, and its slots count from its latest round as before.
"""

from __future__ import annotations

from datetime import datetime

from bot.kernel.models import ChannelSettings
from bot.kernel.stores import MetaStore


def starts_owing(before: ChannelSettings | None, after: ChannelSettings) -> bool:
    """Whether saving ``after`` over ``before`` (None: a new channel) starts its slots."""
    if not after.is_scheduled():
        return False
    return (
        before is None
        or not before.is_scheduled()
        or before.schedule != after.schedule
        or before.timezone != after.timezone
    )


class OwedSince:
    """Each channel's moment, in the store's key/value facts."""

    def __init__(self, meta: MetaStore) -> None:
        self._meta = meta

    async def mark(self, channel_id: int, at: datetime) -> None:
        await self._meta.set_meta(_key(channel_id), at.isoformat())

    async def since(self, channel_id: int) -> datetime | None:
        stored = await self._meta.get_meta(_key(channel_id))
        return None if stored is None else datetime.fromisoformat(stored)


def _key(channel_id: int) -> str:
    return f"slots:owed_since:{channel_id}"
