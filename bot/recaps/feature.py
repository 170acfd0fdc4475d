"""The recaps feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.feature import Feature, Listed
from bot.recaps.commands import RECAP

FEATURE = Feature(
    "recaps",
    subcommands=(Listed(280, RECAP),),
)
