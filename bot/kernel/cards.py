"""The cards every feature shows: an information, an error, and how they write a day, a
count, a share and a channel's status."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.kernel.models import ChannelSettings
from bot.kernel.render import Card, CardKind, Field


def info(title: str, body: str = "") -> Card:
    return Card(title=title, body=body, kind=CardKind.INFO)


def info_fields(title: str, fields: Sequence[Field]) -> Card:
    return Card(title=title, fields=tuple(fields), kind=CardKind.INFO)


def error(body: str) -> Card:
    return Card(title="Sorry", body=body, kind=CardKind.ERROR)


def day_text(moment: datetime, timezone: str) -> str:
    """A date as cards show it: "Tue 01 Dec 2026"."""
    return moment.astimezone(ZoneInfo(timezone)).strftime("%a %d %b %Y")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def with_article(word: str) -> str:
    """``word`` after "a" or "an", as it is read aloud: "an accelerators", "a gpu" (a
    slug of a topic, read letter by letter when it has no vowel, is left with "a")."""
    return f"{'an' if word[:1].lower() in 'aeio' else 'a'} {word}"


def percent(fraction: float) -> str:
    return f"{round(fraction * 100)}%"


def channel_status(channel: ChannelSettings) -> str:
    if channel.disabled_reason:
        return f"disabled: {channel.disabled_reason}"
    return "paused" if channel.paused else "active"
