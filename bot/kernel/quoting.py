"""How a value a member typed is quoted back in a reply: as ``repr`` (control
characters escaped), and shortened, so a 5,000-character argument does not come
back whole."""

from __future__ import annotations

QUOTE_LIMIT = 40


def quoted(value: str, limit: int = QUOTE_LIMIT) -> str:
    """``'Europe/Berlin'``; a value longer than ``limit`` ends in ``…`` inside the quotes."""
    if len(value) <= limit:
        return repr(value)
    return repr(value[:limit] + "…")
