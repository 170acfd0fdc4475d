"""The interviewer's brief carries what the outline after the reveal does for the
follow-ups: each one's reference notes, so the interviewer can judge the answers."""

from __future__ import annotations

from bot.pairing.cards import brief_card
from questions.loader import load_catalog


def test_every_bundled_follow_up_reaches_the_brief_with_its_notes() -> None:
    questions = [q for pack in load_catalog().packs for q in pack.questions if q.follow_ups]
    assert questions
    for question in questions:
        card = brief_card("Ann", question, "2026-W49")
        follow_ups = next(f.value for f in card.fields if f.name == "Follow-ups")
        for follow_up in question.follow_ups:
            assert f"- {follow_up.ask}" in follow_ups
            for note in follow_up.note_lines:
                assert f"– {note}" in follow_ups, (question.id, note)


def test_the_intro_of_three_speaks_to_three() -> None:
    from bot.pairing.cards import intro_card

    three = intro_card(["Ann", "Bob", "Cy"], "2026-W49").body
    assert three.startswith("Hi Ann, Bob and Cy!")
    assert "both" not in three
    assert "a 30-minute slot for each interview that suits all three of you" in three
    assert "Ann interviews Bob, Bob interviews Cy, Cy interviews Ann." in three
    assert "one question for the member you interview" in three
    two = intro_card(["Ann", "Bob"], "2026-W49").body
    assert two.startswith("Hi Ann and Bob!")
    assert "a 30-minute slot that suits you both" in two
    assert "inside both your working hours" in two
