"""The ``extra=`` context of log lines: which platform, channel and round a line is about."""

from __future__ import annotations

from bot.kernel.refs import ChannelRef


def about(channel: ChannelRef, round_id: int | None = None) -> dict[str, object]:
    context: dict[str, object] = {
        "platform": channel.platform,
        "channel": channel.name or channel.channel_id,
    }
    if round_id is not None:
        context["round"] = round_id
    return context
