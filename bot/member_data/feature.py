"""The member_data feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.feature import Feature, Listed
from bot.member_data.commands import EXPORT, FORGET

FEATURE = Feature(
    "member_data",
    subcommands=(
        Listed(110, EXPORT),
        Listed(120, FORGET),
    ),
)
