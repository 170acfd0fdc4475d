"""The channel settings' cards: the topics, the schedule and the ``/quiz config`` settings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.kernel.cards import channel_status, info
from bot.kernel.local_dates import DayRange
from bot.kernel.models import ChannelSettings
from bot.kernel.render import Card, CardKind, Field
from bot.kernel.topic_choice import TopicChoice
from bot.quiz_command.grammar import Setting


def topics_card(all_topics: Iterable[str], choice: TopicChoice, new_topics: str) -> Card:
    lines = [f"{'✅' if choice.allows(topic) else '▫️'} {topic}" for topic in all_topics]
    if not lines:
        return info("Topics (✅ enabled)", "No topics: no packs are loaded.")
    return info("Topics (✅ enabled)", "\n".join([*lines, "", new_topics]))


SKIPS_SHOWN = 10


def schedule_card(
    channel: ChannelSettings, next_post: datetime | None, skipped: Sequence[date] = ()
) -> Card:
    zone = ZoneInfo(channel.timezone)
    when = next_post.astimezone(zone).strftime("%a %d %b %Y %H:%M %Z") if next_post else "—"
    return Card(
        title="Schedule",
        fields=(
            Field("Schedule", channel.schedule or "none", inline=True),
            Field("Timezone", channel.timezone, inline=True),
            Field("Status", channel_status(channel), inline=True),
            Field("Next question", when),
            Field("Skipped days ahead", skipped_text(skipped)),
        ),
        kind=CardKind.INFO,
    )


def skipped_text(skipped: Sequence[date]) -> str:
    """The skipped days ahead, consecutive days as one range, the first few ranges."""
    if not skipped:
        return "none · admins: `/quiz schedule skip DATE[..DATE]`"
    runs: list[list[date]] = []
    for day in sorted(skipped):
        if runs and (day - runs[-1][-1]).days == 1:
            runs[-1].append(day)
        else:
            runs.append([day])
    shown = [DayRange(run[0], run[-1]).text() for run in runs[:SKIPS_SHOWN]]
    if len(runs) > SKIPS_SHOWN:
        shown.append(f"and {len(runs) - SKIPS_SHOWN} more")
    return "\n".join(shown)


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
