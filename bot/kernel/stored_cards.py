"""Cards as JSON text, for outbox actions that carry the card they send.

A round's actions rebuild their card from the question when they are sent; an action
for one member's direct messages (a practice step, a reminder) stores the card it was
given instead. A card with an image is not stored: images are rendered at send time.
"""

from __future__ import annotations

import json
from typing import Any

from bot.kernel.render import Button, Card, CardKind, Field


def card_to_json(card: Card) -> str:
    """The card as compact JSON; raises ValueError for a card with an image."""
    if card.image is not None:
        raise ValueError("a card with an image cannot be stored in the outbox")
    data: dict[str, Any] = {"title": card.title, "kind": card.kind.value}
    if card.body:
        data["body"] = card.body
    if card.fields:
        data["fields"] = [[f.name, f.value, f.inline] for f in card.fields]
    if card.footer:
        data["footer"] = card.footer
    if card.buttons:
        data["buttons"] = [[b.label, b.action, b.value] for b in card.buttons]
    if card.bullets:
        data["bullets"] = list(card.bullets)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def card_from_json(text: str) -> Card:
    """The card :func:`card_to_json` stored."""
    data = json.loads(text)
    return Card(
        title=data["title"],
        body=data.get("body", ""),
        fields=tuple(Field(name, value, inline) for name, value, inline in data.get("fields", ())),
        footer=data.get("footer", ""),
        buttons=tuple(
            Button(label, action, value) for label, action, value in data.get("buttons", ())
        ),
        kind=CardKind(data["kind"]),
        bullets=tuple(data.get("bullets", ())),
    )
