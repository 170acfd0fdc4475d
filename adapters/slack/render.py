"""Render a platform-neutral :class:`~bot.kernel.render.Card` as Slack Block Kit messages.

Every mrkdwn text is escaped (``&``, ``<``, ``>``) so member input can never
become a mention (``<!channel>``, ``<@U123>``) or a link; headers and button
labels are ``plain_text``, which Slack never parses for mentions. Texts longer
than a block allows are split across blocks with :func:`bot.kernel.render.split_text`
and cards longer than a message allows (50 blocks, or 12,000 characters of text in
its blocks, counted escaped as sent) are split across messages: nothing is ever
truncated. A message Slack still refuses as too long is split further
(:func:`split_message`) by the sender.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bot.kernel.render import Button, Card, CardKind, Field, split_text

# Block Kit limits (https://docs.slack.dev/reference/block-kit/blocks).
MAX_BLOCKS_PER_MESSAGE = 50
# The most text the blocks of one message may hold together: Slack answers a longer one
# msg_blocks_too_long. Counted over every text of the blocks, escaped as sent.
MESSAGE_TEXT_LIMIT = 12_000
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
CONTINUED = " (continued)"  # the fallback text of a card's later messages

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


SLACK_GROUP_ID = re.compile(r"S[A-Z0-9]{2,20}")


def render_card(card: Card) -> list[SlackMessage]:
    """The card as one or more messages, in reading order, each of at most 50 blocks
    holding at most 12,000 characters of text."""
    fallback = fallback_text(card)
    groups = _grouped(list(card_blocks(card)), MAX_BLOCKS_PER_MESSAGE, block_text_length)
    return [
        SlackMessage(text=fallback if index == 0 else fallback + CONTINUED, blocks=group)
        for index, group in enumerate(groups or [[]])
    ]


def block_text_length(block: Block) -> int:
    """How much text a block (or any part of one) holds: every ``text`` in it, as sent."""
    total = 0
    for key, value in block.items():
        if key == "text" and isinstance(value, str):
            total += len(value)
        elif isinstance(value, dict):
            total += block_text_length(value)
        elif isinstance(value, list):
            total += sum(block_text_length(item) for item in value if isinstance(item, dict))
    return total


def split_message(message: SlackMessage) -> list[SlackMessage]:
    """The message as two smaller ones, in order (Slack refused it as too long): its
    blocks in two halves, or a lone block's text, fields or elements; [] when nothing is
    left to split."""
    blocks = message.blocks
    if len(blocks) > 1:
        halves = [blocks[: len(blocks) // 2], blocks[len(blocks) // 2 :]]
    elif blocks:
        halves = [[half] for half in _split_block(blocks[0])]
    else:
        halves = []
    continued = message.text if message.text.endswith(CONTINUED) else message.text + CONTINUED
    return [
        SlackMessage(text=message.text if index == 0 else continued, blocks=half)
        for index, half in enumerate(halves)
    ]


def _split_block(block: Block) -> list[Block]:
    """A block in two, or [] when it cannot be split."""
    for key in ("fields", "elements"):
        items = block.get(key)
        if isinstance(items, list) and len(items) > 1:
            middle = len(items) // 2
            return [{**block, key: items[:middle]}, {**block, key: items[middle:]}]
    text = block.get("text")
    if block.get("type") == "section" and isinstance(text, dict):
        chunks = _halves(str(text.get("text", "")))
        if len(chunks) == 2:
            return [{**block, "text": {**text, "text": chunk}} for chunk in chunks]
    return []


def _halves(escaped: str) -> list[str]:
    """Escaped text in two, at a paragraph, line or space near its middle, never inside an
    entity such as ``&amp;``."""
    pieces = split_text(escaped, max(1, (len(escaped) + 1) // 2))
    if len(pieces) < 2:
        return pieces
    first, second = pieces[0], escaped[len(pieces[0]) :].lstrip()
    entity = first.rfind("&")
    if entity >= 0 and ";" not in first[entity:]:  # a cut inside an entity: move it back
        first, second = first[:entity], first[entity:] + second
    return [first, second] if first and second else [escaped]


def _grouped(items: list[Block], most: int, size: Callable[[Block], int]) -> list[list[Block]]:
    """``items`` in order, in groups of at most ``most`` holding at most 12,000 characters."""
    groups: list[list[Block]] = []
    current: list[Block] = []
    held = 0
    for item in items:
        length = size(item)
        if current and (len(current) == most or held + length > MESSAGE_TEXT_LIMIT):
            groups.append(current)
            current, held = [], 0
        current.append(item)
        held += length
    if current:
        groups.append(current)
    return groups


def fallback_text(card: Card) -> str:
    """The notification text: the title (or the start of the card), escaped; led by the
    card's user-group mention, so the group's notification says what it is about."""
    source = card.title or card.plain_text() or " "
    text = split_escaped(source, FALLBACK_TEXT_LIMIT - len(_ping(card)) - 1)[0] or " "
    return f"{_ping(card)} {text}" if _ping(card) else text


def _ping(card: Card) -> str:
    """``<!subteam^ID>`` for the card's user group; "" without one or for an id that is not
    a Slack one (nothing the card carries is ever sent as raw markup)."""
    return f"<!subteam^{card.ping}>" if SLACK_GROUP_ID.fullmatch(card.ping) else ""


def card_blocks(card: Card) -> Iterator[Block]:
    if _ping(card):
        yield _section(_ping(card))
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
    formatted = [{"type": "mrkdwn", "text": _bold_first_line(text)} for text in texts]
    for group in _grouped(formatted, SECTION_MAX_FIELDS, block_text_length):
        yield {"type": "section", "fields": group}


def _bold_first_line(text: str) -> str:
    first, newline, rest = text.partition("\n")
    return f"*{first}*{newline}{rest}" if first else text


def _context(texts: list[str]) -> Iterator[Block]:
    elements = [{"type": "mrkdwn", "text": text or " "} for text in texts]
    for group in _grouped(elements, CONTEXT_MAX_ELEMENTS, block_text_length):
        yield {"type": "context", "elements": group}


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
