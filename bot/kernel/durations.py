"""Durations as admins type them ("4h", "90m", "1h30m", "2d") and as the bot shows them."""

from __future__ import annotations

import re

_DURATION = re.compile(r"(?:(\d{1,3})d)?(?:(\d{1,4})h)?(?:(\d{1,5})m(?:in)?)?", re.IGNORECASE)
DURATION_FORM = "a duration such as 30m, 4h or 1h30m"


def parse_minutes(text: str) -> int:
    """Whole minutes in ``text`` ("4h" is 240); raises ValueError naming the right form."""
    word = text.strip()
    match = _DURATION.fullmatch(word)
    if not word or match is None or not any(match.groups()):
        raise ValueError(f"{word!r} is not {DURATION_FORM}.")
    days, hours, minutes = (int(part or 0) for part in match.groups())
    return days * 24 * 60 + hours * 60 + minutes


def show_minutes(minutes: int) -> str:
    """``240`` is "4h", ``90`` is "1h30m", ``2880`` is "48h"."""
    hours, rest = divmod(minutes, 60)
    if not hours:
        return f"{rest}m"
    return f"{hours}h{rest}m" if rest else f"{hours}h"
