"""The question packs' card."""

from __future__ import annotations

from collections.abc import Sequence

from bot.kernel.cards import info, plural
from bot.kernel.render import Card
from questions.pack import Pack


def packs_card(packs: Sequence[Pack], own_topics: Sequence[str] | None = None) -> Card:
    """The loaded packs, then the workspace's own pack (approved suggestions, in the
    database) when asked from a workspace: ``own_topics`` has one entry per question."""
    lines = [
        f"{p.id} — {p.title} ({plural(len(p.questions), 'question')}; "
        f"topics: {', '.join(p.topics())})"
        for p in packs
    ]
    if own_topics is not None:
        count = (
            f"{plural(len(own_topics), 'question')}; topics: {', '.join(sorted(set(own_topics)))}"
            if own_topics
            else "none yet: `/quiz suggest` one"
        )
        lines.append(f"this workspace — its own questions ({count})")
    return info("Question packs", "\n".join(lines) or "No packs are loaded.")
