"""Saving a change of a channel's settings, and what follows every such change."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.kernel.cards import info
from bot.kernel.log_context import about
from bot.kernel.models import ChannelSettings
from bot.kernel.render import Response

log = logging.getLogger(__name__)


class ChannelSettingsEditor:
    """Saves an admin's change of a channel's settings, reschedules the channel (its
    questions and its recap) and says what changed, in the channel."""

    def __init__(
        self,
        save: Callable[[ChannelSettings], Awaitable[None]],
        rescheduled: Callable[[ChannelSettings], None],
    ) -> None:
        self._save = save
        self._rescheduled = rescheduled

    async def change(self, channel: ChannelSettings, note: str) -> Response:
        await self._save(channel)
        self._rescheduled(channel)
        log.info("channel settings changed: %s", note, extra=about(channel.ref))
        return Response(info("Quiz settings changed", note), public=True)
