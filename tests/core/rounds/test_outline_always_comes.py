"""The outline always comes unless the round was skipped, on both store backends: a round
the next question closes is revealed first, ``reveal-after`` reveals it on time (once,
following the setting as it is when the time comes), and ``/quiz grade ROUND`` grades any
revealed round of the last 14 days."""

from __future__ import annotations

import pytest

from bot.kernel.models import ActionKind
from bot.kernel.render import CardKind
from tests.harness import QuizHarness


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


def outlines(quiz: QuizHarness, round_id: int) -> int:
    return sum(1 for m in quiz.platform.messages if m.key == f"round:{round_id}:outline")


async def test_the_next_question_reveals_a_round_nobody_revealed(quiz: QuizHarness) -> None:
    await quiz.command("now")
    first = await quiz.round()
    await quiz.answer("bob", "my answer")

    await quiz.command("now")

    closed = await quiz.service.store.rounds.get_round(first.id)
    assert closed is not None and closed.revealed_at is not None
    assert outlines(quiz, first.id) == 1
    # the outline went into the first round's thread, before the second question
    keys = [m.key for m in quiz.platform.messages]
    second = await quiz.round()
    assert keys.index(f"round:{first.id}:outline") < keys.index(f"round:{second.id}:question")
    # and bob can grade it now, by its number
    graded = await quiz.command(f"grade {first.number} partly", by="bob")
    assert graded.card.kind is not CardKind.ERROR, graded.card.body
    assert f"#{first.number}" in graded.card.title + graded.card.body


async def test_a_skipped_round_never_gets_its_outline(quiz: QuizHarness) -> None:
    await quiz.command("config reveal-after 1h")
    await quiz.command("now")
    skipped = await quiz.round()
    await quiz.command("skip")
    await quiz.command("now")
    quiz.clock.advance(hours=2)
    await quiz.service.settle()

    assert outlines(quiz, skipped.id) == 0
    refused = await quiz.command(f"grade {skipped.number} good", by="bob")
    assert refused.card.kind is CardKind.ERROR
    assert "/quiz skip" in refused.card.body


async def test_reveal_after_posts_the_outline_once_on_time(quiz: QuizHarness) -> None:
    changed = await quiz.command("config reveal-after 4h")
    assert "4h after the question" in changed.card.body
    await quiz.command("now")
    round_ = await quiz.round()

    quiz.clock.advance(hours=3, minutes=58)
    await quiz.service.settle()
    assert outlines(quiz, round_.id) == 0

    quiz.clock.advance(minutes=3)
    await quiz.service.settle()
    await quiz.service.settle()
    assert outlines(quiz, round_.id) == 1
    revealed = await quiz.service.store.rounds.get_round(round_.id)
    assert revealed is not None and revealed.revealed_at is not None

    await quiz.react("carol", "💡", message_id=revealed.question_message)
    assert outlines(quiz, round_.id) == 1


async def test_a_member_who_reveals_first_gets_no_second_outline(quiz: QuizHarness) -> None:
    await quiz.command("config reveal-after 2h")
    await quiz.command("now")
    round_ = await quiz.round()
    await quiz.react("carol", "💡", message_id=round_.question_message)
    assert outlines(quiz, round_.id) == 1

    quiz.clock.advance(hours=3)
    await quiz.service.settle()

    assert outlines(quiz, round_.id) == 1
    due = await quiz.service.store.outbox.due_actions(quiz.clock.now())
    assert not [a for a in due if a.kind is ActionKind.REVEAL_DUE]


async def test_changing_reveal_after_moves_the_open_rounds_reveal(quiz: QuizHarness) -> None:
    await quiz.command("config reveal-after 4h")
    await quiz.command("now")
    round_ = await quiz.round()

    await quiz.command("config reveal-after 1h")  # sooner: the open round follows
    quiz.clock.advance(minutes=61)
    await quiz.service.settle()
    assert outlines(quiz, round_.id) == 1


async def test_turning_reveal_after_off_keeps_the_open_round_waiting(quiz: QuizHarness) -> None:
    await quiz.command("config reveal-after 1h")
    await quiz.command("now")
    round_ = await quiz.round()
    await quiz.command("config reveal-after off")

    quiz.clock.advance(hours=2)
    await quiz.service.settle()

    assert outlines(quiz, round_.id) == 0
    shown = await quiz.command("config reveal-after")
    assert "off" in shown.card.plain_text()


async def test_a_longer_reveal_after_puts_the_reveal_off(quiz: QuizHarness) -> None:
    await quiz.command("config reveal-after 1h")
    await quiz.command("now")
    round_ = await quiz.round()
    await quiz.command("config reveal-after 3h")

    quiz.clock.advance(minutes=90)
    await quiz.service.settle()
    assert outlines(quiz, round_.id) == 0
    quiz.clock.advance(minutes=91)
    await quiz.service.settle()
    assert outlines(quiz, round_.id) == 1


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        ("4 hours", "one setting and its value"),
        ("4x", "duration"),
        ("0m", "duration"),
        ("200h", "168h"),
    ],
)
async def test_a_bad_reveal_after_names_the_right_form(
    quiz: QuizHarness, typed: str, problem: str
) -> None:
    response = await quiz.command(f"config reveal-after {typed}")
    assert response.card.kind is CardKind.ERROR
    assert problem in response.card.plain_text()
    assert "/quiz config" in response.card.plain_text()


async def test_grade_without_a_round_grades_the_latest_revealed_one(quiz: QuizHarness) -> None:
    await quiz.command("now")
    first = await quiz.round()
    await quiz.command("now")  # reveals the first; the second is open, not revealed

    graded = await quiz.command("grade good", by="bob")

    assert f"#{first.number}" in graded.card.plain_text()
    grades = await quiz.service.store.learning.round_grades(first.id)
    assert len(grades) == 1


async def test_grade_of_an_old_or_unknown_round_is_refused(quiz: QuizHarness) -> None:
    await quiz.command("now")
    first = await quiz.round()
    await quiz.command("now")
    quiz.clock.advance(days=15)
    await quiz.command("now")

    old = await quiz.command(f"grade #{first.number} good", by="bob")
    unknown = await quiz.command("grade 99 good", by="bob")

    assert old.card.kind is CardKind.ERROR and "14 days" in old.card.body
    assert unknown.card.kind is CardKind.ERROR and "#99" in unknown.card.body
    assert await quiz.service.store.learning.round_grades(first.id) == {}
