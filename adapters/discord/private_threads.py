"""A private thread of a quiz channel with exactly some members: where a mock-interview
pair meets on Discord (bots cannot open group DMs there)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import discord

from bot.kernel.refs import ChannelRef, MemberRef

SHARED_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: a mock-interview pair's
PRIVATE_THREAD: Literal[12] = 12  # Discord's channel type of a private thread


async def open_private_thread(
    client: discord.Client,
    channel: ChannelRef,
    members: Sequence[MemberRef],
    name: str,
    again: bool,
) -> int:
    """The id of private thread ``name`` in ``channel`` with ``members`` added (adding a
    member pings nobody else; the thread is not invitable, so only moderators join);
    ``again``: found, if an earlier attempt opened it, rather than opened twice."""
    found = await _opened_thread(client, channel, name) if again else None
    if found is None:
        data = await client.http.start_thread_without_message(
            int(channel.channel_id),
            name=name,
            auto_archive_duration=SHARED_ARCHIVE_MINUTES,
            type=PRIVATE_THREAD,
            invitable=False,
        )
        found = int(data["id"])
    for member in members:  # adding a member twice changes nothing
        await client.http.add_user_to_thread(found, int(member.member_id))
    return found


async def _opened_thread(client: discord.Client, channel: ChannelRef, name: str) -> int | None:
    """The bot's active private thread ``name`` of ``channel``, opened by an earlier
    attempt whose end was lost (a member could not be added, the process died)."""
    me = client.user
    if me is None or not channel.workspace.isdigit():
        return None
    listed = await client.http.get_active_threads(int(channel.workspace))
    for thread in listed.get("threads", []):
        if (
            str(thread.get("parent_id")) == channel.channel_id
            and thread.get("type") == PRIVATE_THREAD
            and str(thread.get("owner_id")) == str(me.id)
            and thread.get("name") == name
        ):
            return int(thread["id"])
    return None
