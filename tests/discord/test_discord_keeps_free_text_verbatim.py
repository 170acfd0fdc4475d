"""The free text of a `/quiz` command on Discord (the ``text`` of an answer, the ``reason``
of a flag or a review) is one option: stored exactly as typed, its repeated spaces,
newlines and code blocks included."""

from __future__ import annotations

from adapters.discord.slash_commands import invocation_words
from bot.features import SUBCOMMANDS_BY_NAME
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    LEAD,
    Quiz,
    quiz,
)

ANSWER = 'tree all-reduce:\n```\nlatency = 2 * log2(n)  # "hops"\n```'
FLAG = "the H100 has  80 GB,\n\nnot 40 (C:\\specs)"


async def test_an_answer_and_a_flag_keep_their_spaces_newlines_and_code(quiz: Quiz) -> None:  # noqa: F811
    await quiz.command(LEAD, "config", {"setting": "answers", "value": "blind"})
    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    await quiz.command(ANN, "answer", {"text": ANSWER})
    await quiz.command(ANN, "flag", {"reason": FLAG})

    round_ = await quiz.round()
    [answer] = await quiz.store.answers.round_answers(round_.id)
    assert answer.text == ANSWER
    [flag] = await quiz.store.bank.flags()
    assert flag.reason == FLAG


def test_a_review_reason_is_one_argument_after_the_words_before_it() -> None:
    options = {"action": "reject", "item": "s3", "reason": "dup of  s1\nsee above"}
    said = invocation_words(SUBCOMMANDS_BY_NAME["review"], options)
    assert said == ("reject", "s3", "dup of  s1\nsee above")
