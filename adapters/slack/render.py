"""Render a platform-neutral :class:`~bot.render.Card` as Slack Block Kit messages.

Every mrkdwn text is escaped (``&``, ``<``, ``>``) so member input can never
become a mention (``<!channel>``, ``<@U123>``) or a link; headers and button
labels are ``plain_text``, which Slack never parses for mentions. Texts longer
than a block allows are split across blocks with :func:`bot.render.split_text`
and cards longer than a message allows are split across messages: nothing is
ever truncated.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bot.render import Button, Card, CardKind, Field, split_text

# Block Kit limits (https://docs.slack.dev/reference/block-kit/blocks).
MAX_BLOCKS_PER_MESSAGE = 50
HEADER_TEXT_LIMIT = 150
SECTION_TEXT_LIMIT = 3000
SECTION_FIELD_LIMIT = 2000
SECTION_MAX_FIELDS = 10
CONTEXT_TEXT_LIMIT = 2000  # conservative: Slack's documented limit for a context element
CONTEXT_MAX_ELEMENTS = 10
ACTIONS_MAX_ELEMENTS = 25
BUTTON_LABEL_LIMIT = 75
BUTTON_VALUE_LIMIT = 2000
FALLBACK_TEXT_LIMIT = 300  # the notification text; the blocks carry the whole card

ACTION_PREFIX = "quiz:"
FORM_PREFIX = "quizform:"  # a modal's callback_id (adapters/slack/forms.py)
REPEAT_MARK = "#"  # a button's action repeated in a card: ``quiz:review_edit#2``

Block = dict[str, Any]


@dataclass(frozen=True, slots=True)
class SlackMessage:
    """One ``chat.postMessage`` worth of content: the fallback ``text`` and the ``blocks``."""

    text: str
    blocks: list[Block]


def escape(text: str) -> str:
    """Escape Slack's control characters so the text shows as typed and never pings."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def split_escaped(text: str, limit: int) -> list[str]:
    """Escape ``text`` and split it into chunks whose *escaped* length fits ``limit``.

    Splitting happens on the raw text so an entity such as ``&amp;`` is never cut.
    """
    return [escaped for chunk in split_text(text, limit) for escaped in _fit(chunk, limit)]


def _fit(chunk: str, limit: int) -> list[str]:
    escaped = escape(chunk)
    if len(escaped) <= limit or len(chunk) <= 1:
        return [escaped]
    smaller = max(1, min(len(chunk) - 1, limit * len(chunk) // len(escaped)))
    return [piece for part in split_text(chunk, smaller) for piece in _fit(part, limit)]


def action_id(action: str) -> str:
    return f"{ACTION_PREFIX}{action}"


def render_card(card: Card) -> list[SlackMessage]:
    """The card as one or more messages of at most 50 blocks each, in reading order."""
    blocks = list(card_blocks(card))
    fallback = fallback_text(card)
    groups = [
        blocks[start : start + MAX_BLOCKS_PER_MESSAGE]
        for start in range(0, len(blocks), MAX_BLOCKS_PER_MESSAGE)
    ] or [[]]
    return [
        SlackMessage(text=fallback if index == 0 else f"{fallback} (continued)", blocks=group)
        for index, group in enumerate(groups)
    ]


def fallback_text(card: Card) -> str:
    """The notification text: the title (or the start of the card), escaped."""
    source = card.title or card.plain_text() or " "
    return split_escaped(source, FALLBACK_TEXT_LIMIT)[0] or " "


def card_blocks(card: Card) -> Iterator[Block]:
    if card.title:
        yield from _title_blocks(card.title)
    if card.body:
        yield from _sections(card.body)
    if card.bullets:
        yield from _sections("\n".join(f"• {item}" for item in card.bullets))
    inline = [f for f in card.fields if f.inline]
    if card.kind is CardKind.QUESTION:
        # The question's short facts (topic, round) read best as one small context line.
        yield from _context([f"*{escape(f.name)}:* {escape(f.value)}" for f in inline])
    else:
        yield from _field_sections(inline)
    for block_field in card.fields:
        if not block_field.inline:
            yield from _sections(f"{block_field.name}\n{block_field.value}", bold_first_line=True)
    if card.footer:
        yield from _context(split_escaped(card.footer, CONTEXT_TEXT_LIMIT))
    if card.buttons:
        yield from _actions(card.buttons)


def _title_blocks(title: str) -> Iterator[Block]:
    if len(title) <= HEADER_TEXT_LIMIT:
        yield {"type": "header", "text": {"type": "plain_text", "text": title, "emoji": True}}
        return
    for chunk in split_escaped(title, SECTION_TEXT_LIMIT - 2):
        yield _section(f"*{chunk}*")


def _section(mrkdwn: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": mrkdwn}}


def _sections(text: str, *, bold_first_line: bool = False) -> Iterator[Block]:
    if bold_first_line:
        name, _, value = text.partition("\n")
        name_chunks = split_escaped(name, SECTION_TEXT_LIMIT - 2)
        for chunk in name_chunks:
            yield _section(f"*{chunk}*") if chunk else _section(" ")
        text = value
        if not text:
            return
    for chunk in split_escaped(text, SECTION_TEXT_LIMIT):
        yield _section(chunk or " ")


def _field_sections(fields: list[Field]) -> Iterator[Block]:
    texts: list[str] = []
    for item in fields:
        texts.extend(split_escaped(f"{item.name}\n{item.value}", SECTION_FIELD_LIMIT - 2))
    formatted = [_bold_first_line(text) for text in texts]
    for start in range(0, len(formatted), SECTION_MAX_FIELDS):
        yield {
            "type": "section",
            "fields": [
                {"type": "mrkdwn", "text": text}
                for text in formatted[start : start + SECTION_MAX_FIELDS]
            ],
        }


def _bold_first_line(text: str) -> str:
    first, newline, rest = text.partition("\n")
    return f"*{first}*{newline}{rest}" if first else text


def _context(texts: list[str]) -> Iterator[Block]:
    for start in range(0, len(texts), CONTEXT_MAX_ELEMENTS):
        yield {
            "type": "context",
            "elements": [
                {"type": "mrkdwn", "text": text or " "}
                for text in texts[start : start + CONTEXT_MAX_ELEMENTS]
            ],
        }


def _actions(buttons: tuple[Button, ...]) -> Iterator[Block]:
    # Slack refuses two elements with one action_id in a block: repeats get a number.
    elements = [_button(b) for b in buttons]
    seen: set[str] = set()
    for element, button in zip(elements, buttons, strict=True):
        if element["action_id"] in seen:
            element["action_id"] = f"{action_id(button.action)}{REPEAT_MARK}{len(seen)}"
        seen.add(element["action_id"])
    for start in range(0, len(elements), ACTIONS_MAX_ELEMENTS):
        yield {"type": "actions", "elements": elements[start : start + ACTIONS_MAX_ELEMENTS]}


def _button(button: Button) -> Block:
    if len(button.value) > BUTTON_VALUE_LIMIT:
        raise ValueError(
            f"button value for {button.action!r} is {len(button.value)} characters; "
            f"Slack allows {BUTTON_VALUE_LIMIT}"
        )
    element: Block = {
        "type": "button",
        # A label is ours, not content: a label longer than Slack allows is shortened.
        "text": {"type": "plain_text", "text": button.label[:BUTTON_LABEL_LIMIT], "emoji": True},
        "action_id": action_id(button.action),
    }
    if button.value:
        element["value"] = button.value
    if button.action == "reveal":
        element["style"] = "primary"
    return element
