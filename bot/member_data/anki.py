"""A member's Anki deck: the questions they graded missed or partly, and those due.

The question is the front; the outline and its key points the back; each note is tagged
with the question's topic. The ``.apkg`` is built with ``genanki`` (imported when a deck is
built: it writes the collection with SQLite, which the core never loads by itself) in a
worker thread, off the event loop.
"""

from __future__ import annotations

import asyncio
import html
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

DECK_NAME = "quizbot practice"
_MODEL_ID = 1_607_392_319  # Anki identifies a note type by its id: keep it fixed
_CSS = ".card { font-family: sans-serif; font-size: 18px; text-align: left; }"


@dataclass(frozen=True, slots=True)
class AnkiCard:
    """One note of the deck."""

    guid: str  # stable per workspace question: a second export updates, not duplicates
    question: str
    outline: str
    key_points: tuple[str, ...]
    topic: str


def _html(text: str) -> str:
    return html.escape(text).replace("\n", "<br>")


def back_html(card: AnkiCard) -> str:
    points = "".join(f"<li>{_html(p)}</li>" for p in card.key_points)
    key_points = f"<p><b>Key points</b></p><ul>{points}</ul>" if points else ""
    return f"{_html(card.outline)}{key_points}"


def _tag(topic: str) -> str:
    return topic.replace(" ", "_") or "untagged"


def build_apkg(cards: list[AnkiCard], deck_id: int) -> bytes:
    import genanki

    model = genanki.Model(
        _MODEL_ID,
        "quizbot question",
        fields=[{"name": "Question"}, {"name": "Outline"}],
        templates=[
            {
                "name": "Recall",
                "qfmt": "{{Question}}",
                "afmt": '{{FrontSide}}<hr id="answer">{{Outline}}',
            }
        ],
        css=_CSS,
    )
    deck = genanki.Deck(deck_id, DECK_NAME)
    for card in cards:
        deck.add_note(
            genanki.Note(
                model=model,
                fields=[_html(card.question), back_html(card)],
                tags=[_tag(card.topic)],
                guid=card.guid,
            )
        )
    with tempfile.TemporaryDirectory(prefix="quizbot-anki-") as folder:
        path = Path(folder) / "deck.apkg"
        genanki.Package(deck).write_to_file(str(path))
        return path.read_bytes()


def deck_id(owner: str) -> int:
    """A deck id of the member's own, stable across exports (Anki merges into it)."""
    return 1 << 30 | zlib.crc32(owner.encode())


async def anki_package(cards: list[AnkiCard], owner: str) -> bytes:
    return await asyncio.to_thread(build_apkg, cards, deck_id(owner))
