"""The reminders feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.feature import Feature, Listed
from bot.reminders.commands import REMIND

FEATURE = Feature(
    "reminders",
    subcommands=(Listed(100, REMIND),),
)
