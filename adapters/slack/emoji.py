"""Slack emoji names ⇄ the Unicode emoji the core compares with.

Slack reports reactions by name (``bulb``, ``+1``, ``+1::skin-tone-3``) and
``reactions.add`` takes a name, while the core keeps each channel's reveal
emoji and the vote emoji as Unicode. This small explicit table covers the
emoji a channel is likely to choose; a name outside it passes through as is.
"""

from __future__ import annotations

NAME_TO_UNICODE: dict[str, str] = {
    "bulb": "💡",
    "+1": "👍",
    "thumbsup": "👍",
    "-1": "👎",
    "thumbsdown": "👎",
    "eyes": "👀",
    "white_check_mark": "✅",
    "heavy_check_mark": "✔️",
    "question": "❓",
    "grey_question": "❔",
    "thinking_face": "🤔",
    "brain": "🧠",
    "mag": "🔍",
    "books": "📚",
    "memo": "📝",
    "star": "⭐",
    "tada": "🎉",
    "rocket": "🚀",
    "fire": "🔥",
    "heart": "❤️",
    "clap": "👏",
    "raised_hands": "🙌",
    "100": "💯",
    "key": "🔑",
    "trophy": "🏆",
}

# Several names share one emoji; reacting uses the first (canonical) name.
UNICODE_TO_NAME: dict[str, str] = {}
for _name, _emoji in NAME_TO_UNICODE.items():
    UNICODE_TO_NAME.setdefault(_emoji, _name)
    UNICODE_TO_NAME.setdefault(_emoji.removesuffix("\ufe0f"), _name)

SKIN_TONE_SEPARATOR = "::skin-tone-"


def to_unicode(name: str) -> str:
    """``bulb`` → ``💡``; ``+1::skin-tone-2`` → ``👍``; an unknown name is returned unchanged."""
    base = name.strip(":").split(SKIN_TONE_SEPARATOR, 1)[0]
    return NAME_TO_UNICODE.get(base, base)


def to_name(emoji: str) -> str:
    """``💡`` → ``bulb``; ``:bulb:`` → ``bulb``; an unknown emoji is returned unchanged."""
    bare = emoji.strip()
    known = UNICODE_TO_NAME.get(bare) or UNICODE_TO_NAME.get(bare.removesuffix("\ufe0f"))
    return known or bare.strip(":")
