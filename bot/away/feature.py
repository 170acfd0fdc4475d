"""The away feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.away.commands import AWAY
from bot.feature import Feature, Listed

FEATURE = Feature(
    "away",
    subcommands=(Listed(130, AWAY),),
)
