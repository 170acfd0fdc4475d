"""The channel settings' cards: the topics, the schedule and the ``/quiz config`` settings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.commands.grammar import Setting
from bot.kernel.cards import channel_status, info
from bot.kernel.models import ChannelSettings
from bot.kernel.render import Card, CardKind, Field


def topics_card(all_topics: Iterable[str], enabled: tuple[str, ...] | None) -> Card:
    lines = [
        f"{'✅' if enabled is None or topic in enabled else '▫️'} {topic}" for topic in all_topics
    ]
    return info("Topics (✅ enabled)", "\n".join(lines) or "No topics: no packs are loaded.")


def schedule_card(channel: ChannelSettings, next_post: datetime | None) -> Card:
    zone = ZoneInfo(channel.timezone)
    when = next_post.astimezone(zone).strftime("%a %d %b %Y %H:%M %Z") if next_post else "—"
    return Card(
        title="Schedule",
        fields=(
            Field("Schedule", channel.schedule or "none", inline=True),
            Field("Timezone", channel.timezone, inline=True),
            Field("Status", channel_status(channel), inline=True),
            Field("Next question", when),
        ),
        kind=CardKind.INFO,
    )


def settings_card(channel: ChannelSettings, settings: Sequence[Setting[Any]]) -> Card:
    """Each setting's value in the channel and the command that changes it."""
    title = "Channel settings" if len(settings) != 1 else f"Setting {settings[0].name}"
    return Card(
        title=title,
        fields=tuple(
            Field(s.name, f"{s.shown(channel)} · change: `/quiz config {s.form()}`")
            for s in settings
        ),
        footer="Only admins change settings.",
        kind=CardKind.INFO,
    )
