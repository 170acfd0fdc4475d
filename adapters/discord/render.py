"""Render a platform-neutral :class:`~bot.kernel.render.Card` as Discord embeds.

Nothing is truncated: long texts are split with :func:`bot.kernel.render.split_text`
at Discord's documented limits (title 256, description 4096, field name 256,
field value 1024, footer 2048, 25 fields per embed) and the embeds are packed
into messages of at most 10 embeds and 6000 characters. Each message of a card
ends with a footer carrying its marker (see :mod:`adapters.discord.nonce`).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.kernel.render import Card, CardKind, split_text

TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FIELDS_PER_EMBED = 25
FOOTER_LIMIT = 2048
EMBEDS_PER_MESSAGE = 10
CHARACTERS_PER_MESSAGE = 6000
# Room kept in every footer for " · " plus a marker.
MARKER_ROOM = 40

COLOURS: dict[CardKind, int] = {
    CardKind.QUESTION: 0x5865F2,
    CardKind.FOLLOW_UPS: 0xFEE75C,
    CardKind.OUTLINE: 0x57F287,
    CardKind.INFO: 0x99AAB5,
    CardKind.ERROR: 0xED4245,
}


@dataclass(slots=True)
class _EmbedDraft:
    """An embed being filled until it reaches Discord's size limits."""

    title: str = ""
    description: str = ""
    fields: list[tuple[str, str, bool]] = field(default_factory=list)

    def size(self) -> int:
        return (
            len(self.title)
            + len(self.description)
            + sum(len(name) + len(value) for name, value, _ in self.fields)
        )


def _description_of(card: Card) -> str:
    parts = [card.body] if card.body else []
    if card.bullets:
        parts.append("\n".join(f"• {item}" for item in card.bullets))
    return "\n\n".join(parts)


def _drafts(card: Card, budget: int) -> list[_EmbedDraft]:
    """The card as embed drafts, each within the per-embed limits and ``budget`` characters."""
    title_parts = split_text(card.title, TITLE_LIMIT) if card.title else [""]
    description = _description_of(card)
    if len(title_parts) > 1:  # an overlong title continues in the description
        description = "\n".join([" ".join(title_parts[1:]), description]).strip()
    drafts = [_EmbedDraft(title=title_parts[0])]
    if description:
        chunks = split_text(description, DESCRIPTION_LIMIT)
        drafts[0].description = chunks[0]
        drafts.extend(_EmbedDraft(description=chunk) for chunk in chunks[1:])
    for card_field in card.fields:
        names = split_text(card_field.name or "\u200b", FIELD_NAME_LIMIT)
        name = names[0]
        value = "\n".join([*names[1:], card_field.value]) if len(names) > 1 else card_field.value
        for index, chunk in enumerate(split_text(value or "\u200b", FIELD_VALUE_LIMIT)):
            shown_name = name if index == 0 else f"{name[: FIELD_NAME_LIMIT - 11]} (cont.)"
            current = drafts[-1]
            too_big = current.size() + len(shown_name) + len(chunk) > budget
            if len(current.fields) >= FIELDS_PER_EMBED or (too_big and current.size() > 0):
                drafts.append(_EmbedDraft())
            drafts[-1].fields.append((shown_name, chunk, card_field.inline))
    return drafts


def _footer_text(card: Card) -> str:
    """The card footer when it fits beside a marker, else "" (it then becomes a draft)."""
    return card.footer if len(card.footer) + MARKER_ROOM <= FOOTER_LIMIT else ""


def _all_drafts(card: Card, budget: int) -> list[_EmbedDraft]:
    drafts = _drafts(card, budget)
    if card.footer and not _footer_text(card):
        drafts.extend(
            _EmbedDraft(description=chunk) for chunk in split_text(card.footer, DESCRIPTION_LIMIT)
        )
    return drafts


def _pack(drafts: list[_EmbedDraft], footer_room: int) -> list[list[_EmbedDraft]]:
    """Group drafts into messages within the embed-count and character budgets."""
    budget = CHARACTERS_PER_MESSAGE - footer_room
    messages: list[list[_EmbedDraft]] = [[]]
    used = 0
    for draft in drafts:
        current = messages[-1]
        if current and (len(current) >= EMBEDS_PER_MESSAGE or used + draft.size() > budget):
            messages.append([])
            used = 0
        messages[-1].append(draft)
        used += draft.size()
    return messages


def _grouped(card: Card) -> list[list[_EmbedDraft]]:
    footer_room = len(_footer_text(card)) + MARKER_ROOM
    return _pack(_all_drafts(card, CHARACTERS_PER_MESSAGE - footer_room), footer_room)


ALT_TEXT_LIMIT = 1024  # Discord's limit on an attachment's description


def render_card(card: Card, markers: Sequence[str] = ()) -> list[list[discord.Embed]]:
    """The card as messages (each a list of embeds), in sending order.

    ``markers[i]`` (at most ``MARKER_ROOM - 3`` characters) ends the footer of
    message ``i``; the card's own footer goes on the last message.
    """
    if any(len(marker) + 3 > MARKER_ROOM for marker in markers):
        raise ValueError(f"a marker must be shorter than {MARKER_ROOM - 3} characters")
    colour = COLOURS.get(card.kind, COLOURS[CardKind.INFO])
    grouped = _grouped(card)
    card_footer = _footer_text(card)
    rendered: list[list[discord.Embed]] = []
    for index, group in enumerate(grouped):
        embeds = [
            discord.Embed(title=d.title or None, description=d.description or None, colour=colour)
            for d in group
        ]
        for embed, draft in zip(embeds, group, strict=True):
            for name, value, inline in draft.fields:
                embed.add_field(name=name, value=value, inline=inline)
        footer_parts = []
        if index == len(grouped) - 1 and card_footer:
            footer_parts.append(card_footer)
        if index < len(markers):
            footer_parts.append(markers[index])
        if footer_parts:
            embeds[-1].set_footer(text=" · ".join(footer_parts))
        if index == 0 and card.image is not None:
            embeds[0].set_image(url=f"attachment://{card.image.filename}")
        rendered.append(embeds)
    return rendered


def attachments(card: Card, part: int) -> list[discord.File]:
    """The files message ``part`` of the card carries: its picture goes with the first
    message, whose embed shows it (a new ``File`` each time: sending consumes it)."""
    if part != 0 or card.image is None:
        return []
    image = card.image
    return [
        discord.File(
            io.BytesIO(image.png),
            filename=image.filename,
            description=image.description[:ALT_TEXT_LIMIT],
        )
    ]


def message_count(card: Card) -> int:
    """How many messages the card needs (the number of markers to derive)."""
    return len(_grouped(card))
