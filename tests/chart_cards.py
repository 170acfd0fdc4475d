"""A card with a chart, as the platforms' chart tests send it."""

from __future__ import annotations

from bot.kernel.render import Card, Image

PNG = b"\x89PNG\r\n\x1a\n" + b"chart" * 200
RECAP_CARD = Card(
    title="Weekly recap · 27 Nov – 04 Dec 2026",
    body="5 rounds (+1 on the week before: 4)",
    image=Image(PNG, "recap-2026-W49.png", "Weekly recap: topic mastery and members per day"),
)
