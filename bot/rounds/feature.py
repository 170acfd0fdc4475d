"""The rounds feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.feature import Feature, Listed
from bot.rounds.commands import LEADERBOARD, NOW, REVEAL, SKIP, STATS

FEATURE = Feature(
    "rounds",
    subcommands=(
        Listed(10, LEADERBOARD),
        Listed(160, STATS),
        Listed(220, NOW),
        Listed(230, REVEAL),
        Listed(250, SKIP),
    ),
)
