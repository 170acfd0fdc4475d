"""The grammar takes a trailing free-text parameter from the raw text as typed, after the
words parsed before it; without a raw text (Discord's options) the one argument is kept."""

from __future__ import annotations

import pytest

from bot.bank.commands import FlagRound, ModerationDecision
from bot.blind.commands import AnswerRound
from bot.features import parse_command
from bot.kernel.events import split_command
from bot.quiz_command.grammar import Param, ParamKind, Subcommand
from bot.quiz_command.typed import CommandError


def parsed(typed: str) -> object:
    name, args, text = split_command(typed)
    return parse_command(name, args, text)


def test_the_rest_after_the_parsed_words_is_kept_as_typed() -> None:
    typed = 'review   reject  s3  too close to "s1":\n\n    `x = a\\b`   (C:\\\\x)'
    assert parsed(typed) == ModerationDecision(
        "reject", "s3", 'too close to "s1":\n\n    `x = a\\b`   (C:\\\\x)'
    )
    assert parsed("answer  a  b\tc") == AnswerRound("a  b\tc")
    assert parsed("flag\n```\ncode\n```") == FlagRound("```\ncode\n```")


def test_without_free_text_the_words_decide_as_before() -> None:
    assert parsed("answer") == AnswerRound("")
    with pytest.raises(CommandError, match="Say what is wrong"):
        parsed("flag   ")
    assert parsed("review approve s1") == ModerationDecision("approve", "s1", "")


def test_a_raw_text_that_is_not_the_words_is_not_trusted() -> None:
    assert parse_command("flag", ("a", "b"), "something else") == FlagRound("a b")


def test_free_text_must_be_the_last_parameter() -> None:
    text = Param("text", ParamKind.TEXT, "free")
    with pytest.raises(ValueError, match="only the last parameter"):
        Subcommand("x", "", "", handler=None, params=(text, Param("n", ParamKind.WORD, "")))  # type: ignore[arg-type]
