"""The notices feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.feature import Feature, Listed
from bot.notices.commands import NOTIFY

FEATURE = Feature(
    "notices",
    subcommands=(Listed(140, NOTIFY),),
)
