"""Quiz channels turned off and on again: one the platform says is gone, and all of a
workspace when the app is removed from it or installed in it again."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

from bot.channels.editor import SaveChange
from bot.kernel.clock import Clock
from bot.kernel.errors import WORKSPACE_REMOVED
from bot.kernel.models import ChannelSettings
from bot.kernel.stores import ChannelStore
from bot.outbox.store import OutboxStore

log = logging.getLogger(__name__)


class ChannelDisabling:
    """Disables and enables quiz channels (the core's ``WorkspaceInstalls``)."""

    def __init__(
        self,
        *,
        channels: ChannelStore,
        outbox: OutboxStore,
        save: SaveChange,
        rescheduled: Callable[[ChannelSettings], None],
        clock: Clock,
    ) -> None:
        self._channels = channels
        self._outbox = outbox
        self._save = save
        self._rescheduled = rescheduled
        self._clock = clock

    async def disable_channel(self, channel: ChannelSettings, reason: str) -> None:
        # From the stored settings: an admin may have changed them during the send.
        current = await self._channels.get_channel_by_id(channel.id) or channel
        disabled = await self._save(current, dataclasses.replace(current, disabled_reason=reason))
        await self._outbox.fail_channel_actions(
            channel.id, f"channel disabled: {reason}", self._clock.now()
        )
        self._rescheduled(disabled)

    async def disable_workspace(self, platform: str, workspace: str) -> int:
        """The app was removed from a workspace: each of its running quiz channels is
        disabled (no scheduled round, its pending sends failed). Idempotent; returns how
        many channels were running until now."""
        stopped = 0
        for channel in await self._channels.list_channels():
            if _in_workspace(channel, platform, workspace) and not channel.disabled_reason:
                await self.disable_channel(channel, WORKSPACE_REMOVED)
                stopped += 1
        if stopped:
            log.info(
                "app removed from %s workspace %s: %d channel(s) disabled",
                platform,
                workspace,
                stopped,
            )
        return stopped

    async def enable_workspace(self, platform: str, workspace: str) -> int:
        """The app was installed (again) in a workspace: the channels its removal
        disabled run again; channels disabled for another reason stay so."""
        restarted = 0
        for channel in await self._channels.list_channels():
            if _in_workspace(channel, platform, workspace) and (
                channel.disabled_reason == WORKSPACE_REMOVED
            ):
                enabled = await self._save(
                    channel, dataclasses.replace(channel, disabled_reason=None)
                )
                self._rescheduled(enabled)
                restarted += 1
        if restarted:
            log.info(
                "app installed in %s workspace %s: %d channel(s) enabled again",
                platform,
                workspace,
                restarted,
            )
        return restarted


def _in_workspace(channel: ChannelSettings, platform: str, workspace: str) -> bool:
    return channel.ref.platform == platform and channel.ref.workspace == workspace
