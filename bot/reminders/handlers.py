"""``/quiz remind HH:MM [TIMEZONE]``, ``/quiz remind off`` and ``/quiz remind``: a
member's daily review reminder in their direct messages."""

from __future__ import annotations

from bot.commands.handlers import CommandContext
from bot.commands.typed import SetReminder, ShowReminder, StopReminder
from bot.kernel.errors import Refused
from bot.kernel.platform import DirectMessages
from bot.kernel.render import Card, Response
from bot.reminders.daily import reminder_plan
from bot.reminders.store import Reminder
from bot.rounds import cards

NO_DIRECT_MESSAGES = "Reminders come as direct messages, which this platform does not offer."
EXAMPLE = "`/quiz remind 08:30 Europe/Berlin`"


async def remind(
    ctx: CommandContext, command: ShowReminder | SetReminder | StopReminder
) -> Response:
    member_id = await ctx.engine.store.answers.member_id(ctx.event.member)
    if isinstance(command, StopReminder):
        if await ctx.reminders.stop(member_id):
            return Response(
                cards.info("Reminder off", f"No more review reminders. Set one again: {EXAMPLE}.")
            )
        return Response(cards.info("No reminder was set."))
    current = await ctx.reminders.reminder(member_id)
    if isinstance(command, ShowReminder):
        if current is None:
            return Response(cards.info("No reminder", f"Set a daily one with {EXAMPLE}."))
        return Response(_reminder_card(ctx, current, "Your reminder"))
    platform = ctx.platform
    if not isinstance(platform, DirectMessages):
        raise Refused(NO_DIRECT_MESSAGES)
    timezone = (
        command.timezone
        or (current.timezone if current else None)
        or (ctx.channel.timezone if ctx.channel else None)
        or ctx.engine.config.default_timezone
    )
    direct = await platform.open_direct(ctx.event.member)
    reminder = Reminder(member_id, direct, command.local_time, timezone)
    await ctx.reminders.set(reminder)
    return Response(_reminder_card(ctx, reminder, "Reminder set"))


def _reminder_card(ctx: CommandContext, reminder: Reminder, title: str) -> Card:
    plan = reminder_plan(reminder)
    upcoming = ctx.reminders.next_time(plan)
    when = upcoming.astimezone(plan.tz).strftime("%a %d %b %H:%M %Z") if upcoming else "—"
    return cards.info(
        title,
        f"Every day at {reminder.local_time} ({reminder.timezone}) I send you a direct "
        f"message when reviews are due, saying how many. Next: {when}. "
        "`/quiz remind off` stops it.",
    )
