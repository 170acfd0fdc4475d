"""The daily reminder on a member's page, with the button that turns it on or off
(``/quiz remind``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.kernel.own_views import HOME_ACTION
from bot.kernel.render import Button, Field
from bot.reminders.store import ReminderStore

DEFAULT_REMINDER_TIME = "09:00"


@dataclass(frozen=True, slots=True)
class ReminderOnPage:
    """The daily review reminder: on at a default time with one press, or off."""

    reminders: ReminderStore

    async def show(self, member_id: int) -> Sequence[tuple[Field, Button]]:
        reminder = await self.reminders.reminder(member_id)
        if reminder is None:
            on = f"Remind me daily at {DEFAULT_REMINDER_TIME}"
            return [
                (
                    Field("Daily reminder", "off", inline=True),
                    Button(on, HOME_ACTION, f"remind {DEFAULT_REMINDER_TIME}"),
                )
            ]
        state = f"on, {reminder.local_time} {reminder.timezone}"
        off = Button("Turn the reminder off", HOME_ACTION, "remind off")
        return [(Field("Daily reminder", state, inline=True), off)]
