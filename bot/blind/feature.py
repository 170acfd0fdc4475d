"""The blind feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.blind.answers import opens_form
from bot.blind.commands import ANSWER
from bot.feature import Feature, Listed

FEATURE = Feature(
    "blind",
    subcommands=(Listed(90, ANSWER),),
    opens_form=opens_form,
)
