"""The learning feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.feature import Feature, Listed
from bot.learning.commands import GOAL, GRADE, ME

FEATURE = Feature(
    "learning",
    subcommands=(
        Listed(20, ME),
        Listed(30, GRADE),
        Listed(60, GOAL),
    ),
)
