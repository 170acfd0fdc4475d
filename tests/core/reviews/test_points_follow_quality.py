"""Points follow quality, on both store backends: a first answer earns as much again as
answering did, in proportion to the key points its teammates' reviews ticked (their union);
the author's own ticks never add a point. A careful answer that covers four of five key
points outranks a one-liner posted first."""

from __future__ import annotations

import pytest

from bot.kernel.render import CardKind
from bot.reviews.forms import REVIEW_FORM
from bot.rounds.cards import REVIEW_ACTION
from questions.catalog import Catalog
from tests.core.reviews.test_peer_reviews import catalog_with_key_points, points, press, submit
from tests.harness import QuizHarness

ONE_LINER = "ring allreduce"
CAREFUL = (
    "A ring all-reduce sends each chunk around the ring twice, so each GPU moves"
    " 2(N-1)/N of the data; bus bandwidth normalises by that factor, and NVLink gives it."
)


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


async def one_liner_then_careful(quiz: QuizHarness) -> str:
    """Bob's one-liner (#1), then Ann's careful answer (#2), both before the reveal (15
    points each: the tie goes to Bob, who answered first); the careful answer's message id."""
    await quiz.command("now")
    await quiz.answer("bob", ONE_LINER)
    careful = await quiz.answer("ann", CAREFUL)
    await quiz.react("carol", "💡")
    return careful


async def review(quiz: QuizHarness, by: str, number: int, covered: str) -> None:
    round_ = await quiz.round()
    form = (await press(quiz, by, REVIEW_ACTION, f"r{round_.id}")).form
    assert form is not None and form.kind == REVIEW_FORM
    values = {"answer": str(number), "score": "3", "covered": covered, "comment": ""}
    sent = await submit(quiz, by, form, values)
    assert sent.card.kind is not CardKind.ERROR, sent.card.body


async def board(quiz: QuizHarness) -> list[str]:
    """The week's leaderboard, one line per member."""
    return (await quiz.command("leaderboard week")).card.body.splitlines()


async def test_a_careful_answer_reviewed_four_of_five_outranks_a_one_liner_posted_first(
    quiz: QuizHarness,
) -> None:
    await one_liner_then_careful(quiz)
    before = await board(quiz)
    assert before[0].startswith("1. Bob — 15 pts") and before[1].startswith("2. Ann — 15 pts")

    await review(quiz, "carol", 2, "1 2 3 4")

    after = await board(quiz)
    assert after[0] == "1. Ann — 27 pts (1 answer, 12 for quality)"
    assert after[1] == "2. Bob — 15 pts (1 answer)"
    assert await points(quiz, "ann") == 27


async def test_the_authors_own_ticks_add_no_point(quiz: QuizHarness) -> None:
    await one_liner_then_careful(quiz)

    ticked = await quiz.command("covered 1 2 3 4 5", by="ann")

    assert "5 of 5 key points" in ticked.card.body
    assert await points(quiz, "ann") == 15
    assert (await board(quiz))[0].startswith("1. Bob — 15 pts")


async def test_reviewers_ticks_count_as_their_union_up_to_as_much_again(
    quiz: QuizHarness,
) -> None:
    await one_liner_then_careful(quiz)

    await review(quiz, "carol", 2, "1 2 3")
    await review(quiz, "dave", 2, "3 4 5")

    assert await points(quiz, "ann") == 30  # every key point judged covered: 15 and 15

    removed = await quiz.command("rate #2 remove", by="carol")
    assert removed.card.kind is not CardKind.ERROR
    assert await points(quiz, "ann") == 15 + 9  # dave's three of five are left


async def test_a_vote_keeps_the_quality_points(quiz: QuizHarness) -> None:
    careful = await one_liner_then_careful(quiz)
    await review(quiz, "carol", 2, "1 2 3 4")

    await quiz.react("bob", "👍", message_id=careful)

    assert await points(quiz, "ann") == 15 + 12 + 1


async def test_a_later_reply_earns_no_quality_points(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.answer("ann", ONE_LINER)
    await quiz.answer("ann", CAREFUL)  # her second message: no answer of its own to score
    await quiz.react("carol", "💡")

    await review(quiz, "carol", 2, "1 2 3 4 5")

    assert await points(quiz, "ann") == 15
