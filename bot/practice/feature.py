"""The practice feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.feature import Feature, Listed
from bot.practice.commands import HINT, PRACTICE

FEATURE = Feature(
    "practice",
    subcommands=(
        Listed(70, PRACTICE),
        Listed(80, HINT),
    ),
)
