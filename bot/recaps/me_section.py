"""What ``/quiz me`` shows of the recaps: the member's last weeks, as text and as a chart."""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.own_views import MeSection, MeView
from bot.recaps.weekly import WeeklyRecaps


@dataclass(frozen=True, slots=True)
class ActivitySection:
    recaps: WeeklyRecaps

    async def __call__(self, view: MeView) -> MeSection:
        if not view.with_image:
            return MeSection(
                (
                    await self.recaps.member_activity_field(
                        view.channel, view.member_id, view.name, view.now, view.target
                    ),
                )
            )
        field, image = await self.recaps.member_activity(
            view.channel, view.member_id, view.name, view.now, view.target
        )
        return MeSection((field,), image)
