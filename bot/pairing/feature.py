"""The pairing feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.feature import Feature, Listed
from bot.pairing.commands import PAIR

FEATURE = Feature(
    "pairing",
    subcommands=(Listed(150, PAIR),),
)
