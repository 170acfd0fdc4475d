"""Comparing emoji the way members see them."""

from __future__ import annotations

VARIATION_SELECTOR = "\ufe0f"  # asks for the emoji (not text) form; the same emoji either way


def same_emoji(a: str, b: str) -> bool:
    """Whether two emoji are the same for a member (variation selectors aside)."""
    return a.replace(VARIATION_SELECTOR, "") == b.replace(VARIATION_SELECTOR, "")
