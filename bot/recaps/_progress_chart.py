"""``/quiz me``'s picture: a member's mastery per topic and their last 12 weeks of answers."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import datetime, time
from zoneinfo import ZoneInfo

from bot.bank.catalog import workspace_of
from bot.kernel.models import ChannelSettings
from bot.kernel.render import Field, Image
from bot.learning.team_memory import TeamMemory
from bot.recaps import chart_png
from bot.recaps.chart_data import MeChart, activity, calendar_start, mastery_rows
from bot.recaps.store import RecapStore


async def me_chart(
    store: RecapStore,
    memory: TeamMemory,
    channel: ChannelSettings,
    member_id: int,
    name: str,
    now: datetime,
    target: datetime | None = None,
) -> MeChart:
    """The member's chart; ``target`` is the day their mastery forecasts recall for."""
    zone = ZoneInfo(channel.timezone)
    first_day = calendar_start(now.astimezone(zone).date())
    since = datetime.combine(first_day, time(), tzinfo=zone)
    answered = await store.member_answer_times(channel.id, member_id, since)
    per_day = Counter(moment.astimezone(zone).date() for moment in answered)
    per_topic = await memory.member_mastery(member_id, now, workspace_of(channel.ref))
    return MeChart(
        title=f"{name} in {channel.ref.name or 'this channel'}",
        mastery=mastery_rows(per_topic),
        first_day=first_day,
        answers_per_day=activity(first_day, per_day),
        mastery_on=target.astimezone(zone).date() if target else None,
    )


def activity_field(chart: MeChart) -> Field:
    """The calendar's figures as text, beside the picture."""
    return Field(
        "Last 12 weeks",
        f"{chart.activity_text} (from {chart.first_day:%d %b})",
    )


async def me_image(chart: MeChart) -> Image:
    png = await asyncio.to_thread(chart_png.me_png, chart)  # ~0.1 s of CPU
    topics = ", ".join(f"{row.topic} {row.percent}%" for row in chart.mastery) or "no grades yet"
    description = (
        f"{chart.title}: mastery per topic ({topics}); {chart.activity_text} in the last 12 weeks"
    )
    return Image(png, "progress.png", description)
