"""The bank feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from bot.bank.commands import FLAG, PACKS, REVIEW, SUGGEST
from bot.bank.suggestion_forms import opens_form
from bot.feature import Feature, Listed

FEATURE = Feature(
    "bank",
    subcommands=(
        Listed(190, PACKS),
        Listed(200, SUGGEST),
        Listed(210, FLAG),
        Listed(290, REVIEW),
    ),
    opens_form=opens_form,
)
