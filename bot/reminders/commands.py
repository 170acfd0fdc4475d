"""``/quiz remind HH:MM [TIMEZONE]``, ``/quiz remind off`` and ``/quiz remind``: a
member's daily review reminder in their direct messages."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.feature import Listed
from bot.kernel.cards import info
from bot.kernel.errors import Refused
from bot.kernel.members import MemberIds
from bot.kernel.platform import DirectMessages
from bot.kernel.quoting import quoted
from bot.kernel.render import Card, Response
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Arguments, Param, ParamKind, Subcommand, Suggest
from bot.quiz_command.typed import QuizCommand
from bot.reminders.daily import DailyReminders, reminder_plan
from bot.reminders.store import Reminder
from bot.scheduling.schedule_spec import ScheduleError, parse_timezone

NO_DIRECT_MESSAGES = "Reminders come as direct messages, which this platform does not offer."
EXAMPLE = "`/quiz remind 08:30 Europe/Berlin`"
REMIND_OFF = "off"
TIME_OF_DAY = re.compile(r"(\d{1,2}):(\d{2})")


@dataclass(frozen=True, slots=True)
class ShowReminder(QuizCommand):
    """``/quiz remind``: show the member's daily reminder."""


@dataclass(frozen=True, slots=True)
class SetReminder(QuizCommand):
    """``/quiz remind HH:MM [TIMEZONE]``: set the member's daily reminder."""

    local_time: str  # "HH:MM", 24-hour
    timezone: str | None  # an IANA name as stored; None: keep the current one or a default


@dataclass(frozen=True, slots=True)
class StopReminder(QuizCommand):
    """``/quiz remind off``: stop the member's daily reminder."""


class ReminderCommands:
    """The handler of ``/quiz remind``."""

    def __init__(
        self, reminders: DailyReminders, members: MemberIds, default_timezone: str
    ) -> None:
        self._reminders = reminders
        self._members = members
        self._default_timezone = default_timezone

    async def remind(
        self, ctx: CommandContext, command: ShowReminder | SetReminder | StopReminder
    ) -> Response:
        member_id = await self._members.member_id(ctx.event.member)
        if isinstance(command, StopReminder):
            if await self._reminders.stop(member_id):
                return Response(
                    info("Reminder off", f"No more review reminders. Set one again: {EXAMPLE}.")
                )
            return Response(info("No reminder was set."))
        current = await self._reminders.reminder(member_id)
        if isinstance(command, ShowReminder):
            if current is None:
                return Response(info("No reminder", f"Set a daily one with {EXAMPLE}."))
            return Response(self._reminder_card(current, "Your reminder"))
        platform = ctx.platform
        if not isinstance(platform, DirectMessages):
            raise Refused(NO_DIRECT_MESSAGES)
        timezone = (
            command.timezone
            or (current.timezone if current else None)
            or (ctx.channel.timezone if ctx.channel else None)
            or self._default_timezone
        )
        direct = await platform.open_direct(ctx.event.member)
        reminder = Reminder(member_id, direct, command.local_time, timezone)
        await self._reminders.set(reminder)
        return Response(self._reminder_card(reminder, "Reminder set"))

    def _reminder_card(self, reminder: Reminder, title: str) -> Card:
        plan = reminder_plan(reminder)
        upcoming = self._reminders.next_time(plan)
        when = upcoming.astimezone(plan.tz).strftime("%a %d %b %H:%M %Z") if upcoming else "—"
        return info(
            title,
            f"Every day at {reminder.local_time} ({reminder.timezone}) I send you a direct "
            f"message when reviews are due, saying how many. Next: {when}. "
            "`/quiz remind off` stops it.",
        )


def remind_command(arguments: Arguments) -> ShowReminder | SetReminder | StopReminder:
    """``/quiz remind``, ``/quiz remind off`` or ``/quiz remind HH:MM [TIMEZONE]``."""
    at = None if arguments.get("time") is None else str(arguments["time"])
    zone = None if arguments.get("timezone") is None else str(arguments["timezone"])
    if at is None:
        return ShowReminder()
    if at.lower() == REMIND_OFF:
        return StopReminder()
    match = TIME_OF_DAY.fullmatch(at)
    if match is None:
        raise ValueError(f"{quoted(at)} is not a time: write it as HH:MM, e.g. 08:30.")
    hour, minute = int(match[1]), int(match[2])
    if hour > 23 or minute > 59:
        raise ValueError(f"{quoted(at)} is not a time of day: use 24-hour time, 00:00 to 23:59.")
    if zone is not None:
        try:
            zone = parse_timezone(zone).key
        except ScheduleError:
            raise ValueError(
                f"Unknown timezone {quoted(zone)}: use an IANA name such as Europe/Berlin, "
                "America/New_York or UTC."
            ) from None
    return SetReminder(f"{hour:02d}:{minute:02d}", zone)


REMIND = Subcommand(
    "remind",
    "a daily direct message at your local time when reviews are due; off stops it",
    "/quiz remind 08:30 Europe/Berlin",
    params=(
        Param(
            "time",
            ParamKind.WORD,
            "HH:MM (24 h), or off",
            metavar="HH:MM",
            alone=REMIND_OFF,
            label="time",
        ),
        Param(
            "timezone",
            ParamKind.WORD,
            "IANA timezone, e.g. Europe/Berlin (default: yours, else the channel's)",
            metavar="TIMEZONE",
            label="timezone",
            needs="time",
            suggest=Suggest.TIMEZONES,
        ),
    ),
    build=remind_command,
    handler=ReminderCommands.remind,
    needs_channel=False,
    in_direct=True,
)


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (Listed(100, REMIND),)
