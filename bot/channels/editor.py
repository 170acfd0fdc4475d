"""Saving a change of a channel's settings, and what follows every such change."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.kernel.cards import info
from bot.kernel.log_context import about
from bot.kernel.models import ChannelSettings
from bot.kernel.render import Response

log = logging.getLogger(__name__)

# Stores what the second settings change of the first; the channel as stored now.
SaveChange = Callable[[ChannelSettings, ChannelSettings], Awaitable[ChannelSettings]]


class ChannelSettingsEditor:
    """Saves an admin's change of a channel's settings, reschedules the channel (its
    questions and its recap) and says what changed, in the channel."""

    def __init__(self, save: SaveChange, rescheduled: Callable[[ChannelSettings], None]) -> None:
        self._save = save
        self._rescheduled = rescheduled

    async def change(
        self, channel: ChannelSettings, note: str, *, was: ChannelSettings | None = None
    ) -> Response:
        """Save ``channel`` as changed from ``was``, the settings the change was decided
        from: only what differs is written, so a setting another replica changed since
        stays as it changed it. Without ``was``, none of the channel's own settings
        changed (one kept elsewhere, such as its recap, did)."""
        stored = await self._save(was or channel, channel)
        self._rescheduled(stored)
        log.info("channel settings changed: %s", note, extra=about(channel.ref))
        return Response(info("Quiz settings changed", note), public=True)
