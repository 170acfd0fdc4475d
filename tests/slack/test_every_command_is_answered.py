"""Fuzzing ``/quiz`` over signed Slack requests: every command is acknowledged and answered,
and nothing is logged at ERROR."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given

from tests.command_inputs import FUZZ, quiz_inputs, with_reported_inputs
from tests.slack.driver import SlackQuiz


def _answers(quiz: SlackQuiz) -> int:
    """Everything the bot said in answer to a command: private, public, by response_url, or
    a form it opened (``/quiz suggest``)."""
    public = [m for m in quiz.fake.posts(quiz.channel) if (m.key or "").startswith("response:")]
    said = len(quiz.fake.ephemerals) + len(quiz.fake.responses) + len(public)
    return said + len(quiz.fake.views)


@FUZZ
@given(text=quiz_inputs)
@with_reported_inputs
@pytest.mark.filterwarnings("ignore:Generating overly large repr")  # 5,000-digit inputs
async def test_every_quiz_command_gets_an_answer(
    slack_quiz: SlackQuiz, caplog: pytest.LogCaptureFixture, text: str
) -> None:
    before = _answers(slack_quiz)
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        response = await slack_quiz.command(text)
    assert response.status == 200
    assert _answers(slack_quiz) > before, f"no answer to /quiz {text!r}"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
