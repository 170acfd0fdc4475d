"""The channels feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.channels.commands import CONFIG, PAUSE, RESUME, TOPICS
from bot.channels.schedule_subcommand import SCHEDULE
from bot.feature import Feature, Listed

FEATURE = Feature(
    "channels",
    subcommands=(
        Listed(170, TOPICS),
        Listed(180, SCHEDULE),
        Listed(260, PAUSE),
        Listed(270, RESUME),
        Listed(300, CONFIG),
    ),
)
