"""The reviews feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.feature import Feature, Listed
from bot.reviews.commands import BEST, COVERED, RATE
from bot.reviews.forms import opens_form

FEATURE = Feature(
    "reviews",
    subcommands=(
        Listed(40, COVERED),
        Listed(50, RATE),
        Listed(240, BEST),
    ),
    opens_form=opens_form,
)
