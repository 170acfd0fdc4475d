"""An error of one part of `/quiz pair` shows that part's form and example: a bad
`/quiz pair schedule` is shown `/quiz pair schedule mon 10:00`, a word after `/quiz pair
off` is shown `/quiz pair off`, never the example of opting in."""

from __future__ import annotations

import pytest

from tests.harness import QuizHarness


@pytest.mark.parametrize(
    ("typed", "says", "use", "example"),
    [
        (
            "pair schedule xyz",
            "Give a day and a time, e.g. mon 10:00, or off.",
            "/quiz pair schedule DAY HH:MM|off",
            "/quiz pair schedule mon 10:00",
        ),
        ("pair off now", "off takes nothing after it.", "/quiz pair off", "/quiz pair off"),
        ("pair skip it", "skip takes nothing after it.", "/quiz pair skip", "/quiz pair skip"),
        (
            "pair rate great",
            "Give the score first, 1 to 4, not 'great'.",
            "/quiz pair rate SCORE [N...]",
            "/quiz pair rate 3 1 2",
        ),
    ],
)
async def test_a_pair_error_shows_the_example_of_its_own_part(
    quiz: QuizHarness, typed: str, says: str, use: str, example: str
) -> None:
    await quiz.command("now")
    body = (await quiz.command(typed)).card.body
    assert body == f"{says}\nUse: {use}\nExample: {example}"
