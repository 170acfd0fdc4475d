"""The outline card ends with the question's key points as a checklist."""

from __future__ import annotations

from bot.rounds import cards
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


def test_only_the_follow_ups_with_notes_are_listed_under_the_outline_by_their_number() -> None:
    follow_ups = ["Plain?", {"ask": "Noted?", "notes": "First point.\n\nSecond point."}]
    card = cards.outline_card(_question(follow_ups=follow_ups))
    assert card.body == (
        "Because.\n\nThe follow-ups: what a good answer contains"
        "\nFollow-up 2: Noted?\n– First point.\n– Second point."
    )


def test_corrections_come_right_under_the_outline_with_their_source() -> None:
    corrections = [{"fact": "It is O(N) memory.", "source": "Dao et al. 2022"}]
    card = cards.outline_card(_question(corrections=corrections, key_points=["a", "b", "c"]))
    assert card.body.startswith(
        "Because.\n\nCorrections to the outline\n• It is O(N) memory. (Source: Dao et al. 2022)"
        "\n\nDid you cover…\n☐ a"
    )
