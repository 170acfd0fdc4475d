"""The notices on a member's page, with a button, one per channel they answer in (``/quiz
notify`` is a command of the channel: its button names the channel, ``@<id> notify on``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.kernel.own_views import CHANNELS_SHOWN, HOME_ACTION, IN_CHANNEL, channel_name
from bot.kernel.render import Button, Field
from bot.kernel.stores import ChannelStore
from bot.notices.store import NoticeStore


class MemberChannels(Protocol):
    async def member_channels(self, member_id: int) -> list[int]:
        """The channels the member answered in, most answers first."""
        ...


@dataclass(frozen=True, slots=True)
class NoticesOnPage:
    notices: NoticeStore
    data: MemberChannels
    channels: ChannelStore

    async def show(self, member_id: int) -> Sequence[tuple[Field, Button]]:
        shown = []
        for channel_id in (await self.data.member_channels(member_id))[:CHANNELS_SHOWN]:
            channel = await self.channels.get_channel_by_id(channel_id)
            if channel is None:
                continue
            name = channel_name(channel)
            where = f"{IN_CHANNEL}{channel.ref.channel_id}"
            if await self.notices.is_subscribed(channel_id, member_id):
                field = Field(f"Notices in {name}", "on", inline=True)
                button = Button(f"Stop notices in {name}", HOME_ACTION, f"{where} notify off")
            else:
                field = Field(f"Notices in {name}", "off", inline=True)
                button = Button(f"Notify me in {name}", HOME_ACTION, f"{where} notify on")
            shown.append((field, button))
        return shown
