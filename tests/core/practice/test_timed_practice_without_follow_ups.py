"""Timed practice of a question without follow-ups, on both backends: when the time is
up, the outline comes with its grade buttons, and the session waits for the grade."""

from __future__ import annotations

import pytest

from bot.practice.store import PracticeState
from questions.catalog import Catalog
from questions.pack import Pack
from tests.conftest import sample_pack
from tests.core.practice.test_practice_sessions import dm_cards, grade_in_dm, session_of
from tests.harness import QuizHarness


@pytest.fixture
def catalog() -> Catalog:
    pack = sample_pack().model_dump()
    for question in pack["questions"]:
        question["follow_ups"] = []
    return Catalog([Pack.model_validate(pack)])


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


async def test_the_time_up_brings_the_outline_to_grade(quiz: QuizHarness) -> None:
    await quiz.command("practice timed 4", by="ann")
    question = dm_cards(quiz, "ann")[0]
    assert "When the time is up, we move on to the outline." in question.footer
    quiz.clock.advance(minutes=3)
    await quiz.service.settle()
    assert "in a minute we move on to the outline" in dm_cards(quiz, "ann")[-1].body

    quiz.clock.advance(minutes=1)
    await quiz.service.settle()
    outline = dm_cards(quiz, "ann")[-1]
    assert outline.title == "Sample answer outline"
    assert outline.body.startswith("Time's up. Grade what you had in mind against the outline.")
    assert len(outline.buttons) == 4  # the grades
    session = await session_of(quiz, "ann")
    assert session is not None and session.state is PracticeState.GRADE and session.timed_out

    await grade_in_dm(quiz, "ann", "grade partly")
    assert dm_cards(quiz, "ann")[-1].body.startswith("The time ran out before your answer")
