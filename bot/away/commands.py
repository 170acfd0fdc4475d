"""``/quiz away until DATE``, ``/quiz away off`` and ``/quiz away``: a member's time away.

Away covers every channel of the member's workspace; set in direct messages, where no
workspace is named (Discord's DMs), every workspace the bot knows the member in. Dates
are read in the channel's timezone (in direct messages, the bot's default one).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from bot.away.cards import away_card, back_card
from bot.away.periods import is_away
from bot.away.store import AwayStore
from bot.feature import Listed
from bot.kernel.clock import Clock
from bot.kernel.errors import BadArgument
from bot.kernel.local_dates import (
    DAY_FORM,
    local_today,
    parse_day,
    refuse_past,
    refuse_too_far,
)
from bot.kernel.members import MemberIds
from bot.kernel.render import Response
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Arguments, Param, ParamKind, Subcommand
from bot.quiz_command.typed import QuizCommand

AWAY_OFF = "off"
AWAY_UNTIL = "until"


@dataclass(frozen=True, slots=True)
class ShowAway(QuizCommand):
    """``/quiz away``: whether the member is away, and until when."""


@dataclass(frozen=True, slots=True)
class GoAway(QuizCommand):
    """``/quiz away until DATE``: away from today through ``last`` (inclusive)."""

    last: date


@dataclass(frozen=True, slots=True)
class ComeBack(QuizCommand):
    """``/quiz away off``: back from today (today is not excused)."""


class AwayCommands:
    """The handler of ``/quiz away``."""

    def __init__(
        self, away: AwayStore, members: MemberIds, clock: Clock, default_timezone: str
    ) -> None:
        self._away = away
        self._members = members
        self._clock = clock
        self._default_timezone = default_timezone

    async def away(self, ctx: CommandContext, command: ShowAway | GoAway | ComeBack) -> Response:
        now = self._clock.now()
        timezone = ctx.channel.timezone if ctx.channel else self._default_timezone
        today = local_today(now, timezone)
        member = ctx.event.member.member_id
        workspaces = await self._workspaces(ctx)
        if isinstance(command, GoAway):
            try:
                refuse_past(command.last, today)
                refuse_too_far(command.last, today)
            except ValueError as problem:
                raise BadArgument(str(problem)) from None
            for workspace in workspaces:
                await self._away.set(workspace, member, today, command.last, now)
            return Response(away_card(command.last, "Away"))
        if isinstance(command, ComeBack):
            was_away = False
            for workspace in workspaces:
                was_away = await self._away.clear(workspace, member, today, now) or was_away
            return Response(back_card(was_away))
        untils = [await self._away.until(w, member) for w in workspaces]
        until = max((u for u in untils if u is not None), default=None)
        current = until if is_away(until, today) else None
        return Response(away_card(current, "You are away"))

    async def _workspaces(self, ctx: CommandContext) -> list[str]:
        """Where the setting applies: the workspace of the command, and in direct
        messages every workspace of the platform the bot knows the member in."""
        member = ctx.event.member
        await self._members.member_id(member)  # known here from now on
        if not ctx.event.direct:
            return [member.workspace]
        known = await self._away.member_workspaces(member.platform, member.member_id)
        return list(dict.fromkeys([member.workspace, *known]))


def away_command(arguments: Arguments) -> ShowAway | GoAway | ComeBack:
    """``/quiz away``, ``/quiz away off`` or ``/quiz away until DATE``."""
    mode = arguments.get("mode")
    if mode is None:
        return ShowAway()
    if mode == AWAY_OFF:
        return ComeBack()
    return GoAway(parse_day(str(arguments["date"])))


AWAY = Subcommand(
    "away",
    "away through a date (holidays): no reminders or notifications, and your streak waits;"
    " off: back today",
    "/quiz away until {today+14}",
    params=(
        Param(
            "mode",
            ParamKind.CHOICE,
            "until a date, or off (back today)",
            metavar=AWAY_UNTIL,
            choices=(AWAY_UNTIL, AWAY_OFF),
            alone=AWAY_OFF,
            label="until or off",
        ),
        Param(
            "date",
            ParamKind.WORD,
            f"the last day you are away, {DAY_FORM}",
            metavar="DATE",
            label="date",
            needs="mode",
            required=True,
            missing=f"Give the last day you are away: /quiz away until {DAY_FORM}.",
        ),
    ),
    build=away_command,
    handler=AwayCommands.away,
    needs_channel=False,
    in_direct=True,
)


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (Listed(130, AWAY),)
