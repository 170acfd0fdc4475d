"""When a member's next review is, as `/quiz me` and their page say it: now while any is
due (never "—" beside reviews due), else the day of the earliest one ahead."""

from __future__ import annotations

from bot.kernel.cards import day_text
from bot.learning.service import Mastery

REVIEW_NOW = "now: `/quiz practice`"


def next_review_text(mastery: Mastery, timezone: str) -> str:
    if mastery.due:
        return REVIEW_NOW
    if mastery.next_review is None:
        return "—"
    return day_text(mastery.next_review, timezone)
