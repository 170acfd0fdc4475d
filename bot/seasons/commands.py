"""``/quiz season [YYYY-MM|YYYY-Qn]``: a season's standings and the archive of past
champions (the running season by default)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.feature import Listed
from bot.kernel.clock import Clock
from bot.kernel.errors import Refused
from bot.kernel.models import SeasonLength
from bot.kernel.render import Response
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Param, ParamKind, Subcommand
from bot.quiz_command.typed import QuizCommand
from bot.seasons.cards import standings_card
from bot.seasons.periods import local_day, parse_season, season_of
from bot.seasons.standings import SeasonStandings
from bot.seasons.store import SeasonStore


@dataclass(frozen=True, slots=True)
class ShowSeason(QuizCommand):
    """``/quiz season [PERIOD]``: PERIOD None is the running season."""

    period: str | None


class SeasonCommands:
    """The handler of ``/quiz season``."""

    def __init__(self, standings: SeasonStandings, seasons: SeasonStore, clock: Clock) -> None:
        self._standings = standings
        self._seasons = seasons
        self._clock = clock

    async def season(self, ctx: CommandContext, command: ShowSeason) -> Response:
        channel = ctx.quiz
        if channel.seasons is SeasonLength.OFF:
            raise Refused(
                "Seasons are off in this channel. An admin turns them on with"
                " `/quiz config seasons monthly` (or quarterly)."
            )
        now = self._clock.now()
        running = season_of(local_day(now, channel.timezone), channel.seasons)
        season = (
            running if command.period is None else parse_season(command.period, channel.seasons)
        )
        if season > running:
            raise Refused(f"Season {season.name} has not begun yet; this is {running.name}.")
        standings = await self._standings.of(channel, season, now)
        archive = await self._seasons.seasons(channel.id)
        return Response(standings_card(standings, archive, running=season == running))


SEASON = Subcommand(
    "season",
    "this season's standings (most points, most improved, most helpful) and past champions",
    "/quiz season 2026-11",
    params=(
        Param(
            "period",
            ParamKind.WORD,
            "A past season: YYYY-MM, or YYYY-Qn where seasons are quarters",
            metavar="YYYY-MM|YYYY-Qn",
            label="season",
        ),
    ),
    build=lambda a: ShowSeason(period=str(a["period"]) if "period" in a else None),
    handler=SeasonCommands.season,
)

# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature)
SUBCOMMANDS: tuple[Listed, ...] = (Listed(15, SEASON),)
