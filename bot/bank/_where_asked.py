"""Where an approved question will be asked: the workspace's quiz channels whose topics
include its topic, and those where an admin must enable it first."""

from __future__ import annotations

from bot.bank.catalog import workspace_of
from bot.bank.store import Workspace
from bot.kernel.models import ChannelSettings
from bot.kernel.stores import ChannelStore

NAMED = 5  # channels named one by one; more are counted


async def where_asked(channels: ChannelStore, workspace: Workspace, topic: str) -> str:
    """One or two sentences naming the channels that may ask a question of ``topic``."""
    active = [
        channel
        for channel in await channels.list_channels()
        if workspace_of(channel.ref) == workspace and channel.disabled_reason is None
    ]
    asking = [c for c in active if c.topics.allows(topic)]
    waiting = [c for c in active if not c.topics.allows(topic)]
    enable = f"until an admin there runs `/quiz topics enable {topic}`"
    if not active:
        return "No channel of this workspace has a quiz yet."
    if not waiting:
        return f"It may be asked in {_names(asking)}."
    if not asking:
        return f"Its topic {topic} is disabled in {_names(waiting)} {enable}."
    return (
        f"It may be asked in {_names(asking)}; in {_names(waiting)} its topic {topic} is"
        f" disabled {enable}."
    )


def _names(channels: list[ChannelSettings]) -> str:
    names = sorted(
        f"#{c.ref.name.lstrip('#')}" if c.ref.name else c.ref.channel_id for c in channels
    )
    if len(names) > NAMED:
        return f"{', '.join(names[:NAMED])} and {len(names) - NAMED} more"
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} and {names[-1]}"
