"""``/quiz recap``: show a channel's weekly recap schedule; admins set it or turn it off."""

from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bot.channels.editor import ChannelSettingsEditor
from bot.feature import Listed
from bot.kernel.cards import info_fields
from bot.kernel.clock import Clock
from bot.kernel.models import ChannelSettings
from bot.kernel.render import Card, Field, Response
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Arguments, Param, ParamKind, Subcommand
from bot.quiz_command.typed import QuizCommand
from bot.recaps._schedule import DEFAULT_RECAP_TIME, RecapSetting, parse_recap_time
from bot.recaps.weekly import WeeklyRecaps
from bot.scheduling.slot_arithmetic import next_slot


@dataclass(frozen=True, slots=True)
class ShowRecap(QuizCommand):
    """``/quiz recap``: the channel's weekly recap setting."""


@dataclass(frozen=True, slots=True)
class SetRecap(QuizCommand):
    """``/quiz recap DAY [HH:MM]|off``: schedule or switch off the weekly recap."""

    schedule: str | None  # "fri 16:00"; None: off


class RecapCommands:
    """The handler of ``/quiz recap``."""

    def __init__(self, recaps: WeeklyRecaps, settings: ChannelSettingsEditor, clock: Clock) -> None:
        self._recaps = recaps
        self._settings = settings
        self._clock = clock

    async def recap(self, ctx: CommandContext, command: ShowRecap | SetRecap) -> Response:
        channel = ctx.quiz
        if isinstance(command, ShowRecap):
            return Response(self._recap_card(channel))
        setting = RecapSetting(enabled=command.schedule is not None, schedule=command.schedule)
        await self._recaps.change(channel.id, setting)
        if command.schedule is None:
            note = "No weekly recap any more. Turn it on again with `/quiz recap fri 16:00`."
        else:
            note = f"The weekly recap goes out every {command.schedule} ({channel.timezone})."
        return await self._settings.change(channel, note)

    def _recap_card(self, channel: ChannelSettings) -> Card:
        setting = self._recaps.setting(channel.id)
        plan = self._recaps.plan(channel)
        upcoming = next_slot(plan.spec, plan.tz, self._clock.now()) if plan else None
        when = (
            upcoming.astimezone(ZoneInfo(channel.timezone)).strftime("%a %d %b %Y %H:%M %Z")
            if upcoming
            else "—"
        )
        return info_fields(
            "Weekly recap",
            (
                Field("Recap", setting.describe(), inline=True),
                Field("Timezone", channel.timezone, inline=True),
                Field("Next recap", when),
            ),
        )


def recap_command(arguments: Arguments) -> ShowRecap | SetRecap:
    """``/quiz recap``, ``/quiz recap off`` or ``/quiz recap DAY [HH:MM]`` (16:00 if no time)."""
    if "day" not in arguments:
        return ShowRecap()
    day, at = str(arguments["day"]), arguments.get("time")
    if day.lower() == "off":
        return SetRecap(schedule=None)
    return SetRecap(schedule=parse_recap_time(day, str(at or DEFAULT_RECAP_TIME)))


RECAP = Subcommand(
    "recap",
    "show the weekly recap's day and time; admins set it or turn it off",
    "/quiz recap fri 16:00",
    params=(
        Param(
            "day",
            ParamKind.WORD,
            "Admins: off, or the day (mon..sun)",
            metavar="DAY",
            alone="off",
            label="day",
            admin=True,
        ),
        Param(
            "time",
            ParamKind.WORD,
            "Admins: the time, HH:MM (24 h; default 16:00)",
            metavar="HH:MM",
            label="time",
            admin=True,
            needs="day",
        ),
    ),
    build=recap_command,
    handler=RecapCommands.recap,
)


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (Listed(280, RECAP),)
