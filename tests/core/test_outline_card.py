"""The outline card ends with the question's key points as a checklist."""

from __future__ import annotations

from bot import cards
from questions.pack import Question


def _question(**changes: object) -> Question:
    fields: dict[str, object] = {
        "id": "q",
        "topic": "t",
        "question": "Why?",
        "outline": "Because.",
        **changes,
    }
    return Question.model_validate(fields)


def test_the_outline_lists_the_key_points_to_check_off() -> None:
    card = cards.outline_card(_question(key_points=["one", "two", "three"]))
    assert card.body == "Because.\n\nDid you cover…\n☐ one\n☐ two\n☐ three"


def test_an_outline_without_key_points_is_the_outline_alone() -> None:
    assert cards.outline_card(_question()).body == "Because."
