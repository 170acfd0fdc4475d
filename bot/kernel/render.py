"""The platform-neutral message model.

The core builds every message once as a :class:`Card`; each adapter renders it
(Discord embed, Slack Block Kit, plain text on the console) and splits long
texts to its platform's limits with :func:`split_text`, never truncating.
All text in a card may contain member input: adapters must render it inert
(no pings, no markup injection).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from bot.kernel.forms import FieldProblem, Form


class CardKind(StrEnum):
    """What a card is for, which decides its colour or prefix on each platform."""

    QUESTION = "question"
    FOLLOW_UPS = "follow_ups"
    OUTLINE = "outline"
    INFO = "info"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Field:
    """A labelled value shown in a card."""

    name: str
    value: str
    inline: bool = False


@dataclass(frozen=True, slots=True)
class Button:
    """A button on a card: the action it triggers and its value."""

    label: str
    action: str
    value: str = ""


@dataclass(frozen=True, slots=True)
class Image:
    """A picture that goes with a card: rendered when the card is sent, never stored."""

    png: bytes
    filename: str  # e.g. "recap-2026-W48.png"
    description: str  # alt text: what the picture shows (its figures are in the card too)


@dataclass(frozen=True, slots=True)
class Card:
    """A platform-neutral message: title, body, fields, footer and buttons."""

    title: str
    body: str = ""
    fields: tuple[Field, ...] = ()
    footer: str = ""
    buttons: tuple[Button, ...] = ()
    kind: CardKind = CardKind.INFO
    bullets: tuple[str, ...] = field(default_factory=tuple)
    image: Image | None = None
    # A member's answer the bot posts for them (blind answers at the reveal): the member's
    # name, so a platform that lists a thread's answers (the console's `:react #N`) lists it.
    answer_by: str = ""
    # A group the card mentions (a Discord role id, a Slack user group id): the only
    # mention a platform lets ping; member text in a card never pings.
    ping: str = ""

    def plain_text(self) -> str:
        """The whole card as plain text (console, notifications, fallbacks)."""
        parts = [self.title] if self.title else []
        if self.body:
            parts.append(self.body)
        parts.extend(f"• {item}" for item in self.bullets)
        parts.extend(f"{f.name}: {f.value}" for f in self.fields)
        if self.footer:
            parts.append(self.footer)
        return "\n".join(parts)


@dataclass(frozen=True, slots=True)
class Response:
    """What the engine answers to a command or button: shown to the caller only unless public.

    With ``form`` the adapter opens that form (the card is the fallback text); with
    ``problems`` a submitted form was refused field by field (the card says so in words).
    """

    card: Card
    public: bool = False
    form: Form | None = None
    problems: tuple[FieldProblem, ...] = ()


def split_text(text: str, limit: int) -> list[str]:
    """Split ``text`` into chunks of at most ``limit`` characters, losing nothing.

    Prefers paragraph breaks, then line breaks, then spaces; a single word
    longer than ``limit`` is cut hard. Joining the chunks with the separator
    that was split on gives back the text (whitespace at a cut is dropped).
    """
    if limit <= 0:
        raise ValueError("limit must be positive")
    chunks: list[str] = []
    rest = text
    while len(rest) > limit:
        window = rest[: limit + 1]
        cut = -1
        for separator in ("\n\n", "\n", " "):
            cut = window.rfind(separator, 0, limit + 1)
            if cut > 0:
                break
        if cut <= 0:
            chunks.append(rest[:limit])
            rest = rest[limit:]
            continue
        chunks.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest or not chunks:
        chunks.append(rest)
    return chunks
