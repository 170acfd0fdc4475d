"""The channel's schedule on the lead's page: the next posting slots of the coming weeks,
and the days skipped among them (``/quiz schedule skip``)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from bot.kernel.dashboard_views import DashboardSection, DashboardView, Facts, Table
from bot.scheduling.next_post import next_post
from bot.scheduling.skipped_days import SkippedDayStore

DAYS_AHEAD = 28
SLOTS_SHOWN = 20


class ScheduleAhead:
    def __init__(self, skipped_days: SkippedDayStore) -> None:
        self._skipped = skipped_days

    async def __call__(self, view: DashboardView) -> DashboardSection:
        channel, now = view.channel, view.now
        zone = ZoneInfo(channel.timezone)
        today = now.astimezone(zone).date()
        last = today + timedelta(days=DAYS_AHEAD)
        skipped = await self._skipped.skipped_days(channel.id, today, last)
        rows: list[tuple[str, str]] = []
        after = now
        while len(rows) < SLOTS_SHOWN:
            # every slot, skipped days included, then marked: the lead sees both
            slot = next_post(channel, after)
            if slot is None or slot.astimezone(zone).date() > last:
                break
            local = slot.astimezone(zone)
            rows.append(
                (
                    f"{local:%a %d %b %Y %H:%M}",
                    "skipped" if local.date() in skipped else "question",
                )
            )
            after = slot
        state = "paused" if channel.paused else ("on" if channel.is_scheduled() else "off")
        return DashboardSection(
            "Schedule ahead",
            f"this channel's schedule and skipped days (`/quiz schedule`), the next"
            f" {DAYS_AHEAD} days in {channel.timezone}",
            (
                Facts(
                    (
                        ("Schedule", channel.schedule or "none"),
                        ("Timezone", channel.timezone),
                        ("Posting", state),
                        (
                            "Skipped days ahead",
                            ", ".join(f"{d:%a %d %b}" for d in skipped) or "none",
                        ),
                    )
                ),
                Table(("slot", "what happens"), tuple(rows), "No question is scheduled."),
            ),
        )
