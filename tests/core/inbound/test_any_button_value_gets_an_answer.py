"""A Reveal button's value comes from the platform: any value gets an answer, no error."""

from __future__ import annotations

import logging

import pytest

from bot.kernel.events import ButtonPress
from bot.kernel.refs import MessageRef
from bot.kernel.render import CardKind
from tests.harness import QuizHarness


@pytest.mark.parametrize("value", ["9" * 30, "9" * 5000, "-1", "0x10", "١٢", "", "7 "])
async def test_a_reveal_value_that_is_no_round_id_is_answered_without_an_error(
    quiz: QuizHarness, value: str, caplog: pytest.LogCaptureFixture
) -> None:
    await quiz.command("now")
    press = ButtonPress(
        "ev-press",
        quiz.channel,
        MessageRef(quiz.channel, "m1"),
        quiz.member("ann"),
        "reveal",
        value,
    )
    with caplog.at_level(logging.WARNING):
        response = await quiz.service.handle(press)
    assert response is not None and response.card.kind is CardKind.ERROR
    assert "not in this channel" in response.card.body
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
