"""Hints in private practice, through the core and the fake platform on both backends:
the Hint button and ``/quiz hint`` reveal one key point at a time, each once; the hints
taken are recorded on the session; with one taken the best grade is "good"."""

from __future__ import annotations

import pytest

from bot.kernel.events import ButtonPress, Command
from bot.kernel.grades import Grade
from bot.kernel.refs import MessageRef
from bot.practice._cards import HINT_ACTION
from questions.catalog import Catalog
from tests.core.practice.test_practice_sessions import (
    dm,
    dm_cards,
    grade_in_dm,
    session_of,
    write,
)
from tests.core.reviews.test_peer_reviews import KEY_POINTS, catalog_with_key_points
from tests.harness import QuizHarness


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


def hints(quiz: QuizHarness, name: str) -> list[tuple[str, str]]:
    return [(c.title, c.body) for c in dm_cards(quiz, name) if c.title.startswith("Hint")]


async def hint_in_dm(quiz: QuizHarness, name: str) -> str:
    """What `/quiz hint` run in the DMs answers besides the hint itself ("": nothing)."""
    event = Command(quiz.event_id(), dm(quiz, name), quiz.member(name), "hint", (), direct=True)
    response = await quiz.service.handle(event)
    await quiz.service.settle()
    return "" if response is None else response.card.body


async def test_hints_one_key_point_at_a_time_and_good_at_best(quiz: QuizHarness) -> None:
    await quiz.command("practice", by="ann")
    question = next(c for c in dm_cards(quiz, "ann") if c.title == "Practice question")
    (button,) = question.buttons
    assert button.action == HINT_ACTION and "/quiz hint" in question.footer
    session = await session_of(quiz, "ann")
    assert session is not None and session.hints == 0
    channel = dm(quiz, "ann")
    pressed = ButtonPress(
        quiz.event_id(),
        channel,
        MessageRef(channel, "m1"),
        quiz.member("ann"),
        HINT_ACTION,
        button.value,
    )
    assert await quiz.service.handle(pressed) is None  # the hint itself is the answer
    await quiz.service.settle()
    assert await hint_in_dm(quiz, "ann") == ""  # the hint, in the DMs, is the answer
    assert hints(quiz, "ann") == [
        (f"Hint 1 of {len(KEY_POINTS)}", KEY_POINTS[0]),
        (f"Hint 2 of {len(KEY_POINTS)}", KEY_POINTS[1]),
    ]
    session = await session_of(quiz, "ann")
    assert session is not None and session.hints == 2
    # answer the question and its follow-ups, then grade "nailed": recorded as "good"
    asked = quiz.service.engine.question_for(session.direct, session.question_id)
    assert asked is not None
    for _ in range(len(asked.follow_ups) + 1):
        await write(quiz, "ann", "my answer")
    refused = await hint_in_dm(quiz, "ann")
    assert "outline is out" in refused
    await grade_in_dm(quiz, "ann", "grade nailed")
    graded = next(c for c in dm_cards(quiz, "ann") if c.title.startswith("Practice graded"))
    assert graded.title == "Practice graded: good" and "hint taken" in graded.body
    member = await quiz.service.store.members.member_id(quiz.member("ann"))
    log = await quiz.service.store.learning.grade_log(member)
    assert [grade for _, grade, _, _ in log] == [Grade.GOOD]


async def test_without_a_hint_nailed_stays_nailed(quiz: QuizHarness) -> None:
    await quiz.command("practice", by="bob")
    session = await session_of(quiz, "bob")
    assert session is not None
    question = quiz.service.engine.question_for(session.direct, session.question_id)
    assert question is not None
    for _ in range(len(question.follow_ups) + 1):
        await write(quiz, "bob", "my answer")
    await grade_in_dm(quiz, "bob", "grade nailed")
    assert any(c.title == "Practice graded: nailed" for c in dm_cards(quiz, "bob"))


async def test_no_more_hints_than_key_points_and_none_without_a_session(
    quiz: QuizHarness,
) -> None:
    assert "No practice session" in await hint_in_dm(quiz, "cat")
    await quiz.command("practice", by="cat")
    for _ in KEY_POINTS:
        await hint_in_dm(quiz, "cat")
    assert "No more hints" in await hint_in_dm(quiz, "cat")
    assert len(hints(quiz, "cat")) == len(KEY_POINTS)


async def test_a_hint_asked_in_the_channel_says_where_it_went(quiz: QuizHarness) -> None:
    await quiz.command("practice", by="ann")
    told = await quiz.command("hint", by="ann")
    assert told.card.body == "The next key point is in your direct messages."
    assert len(hints(quiz, "ann")) == 1
