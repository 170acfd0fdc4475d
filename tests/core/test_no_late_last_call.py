"""A last call is sent at its moment or not at all, on both backends: after downtime the
outbox's backlog must not tell a member "its outline is posted in about 1h" when the
outline is out already, or comes sooner than it says.

The harness runs the outbox only when a test settles it, so moving the clock without
settling is the bot being down; the first settle afterwards is the restart's backlog.
"""

from __future__ import annotations

import pytest

from bot.kernel.render import Card
from tests.harness import QuizHarness


@pytest.fixture
async def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    await quiz_on_both.command("config reveal-after 2h")
    await quiz_on_both.command("config last-call 1h")
    await quiz_on_both.command("notify on", by="ann")
    return quiz_on_both


def direct_to(quiz: QuizHarness, name: str) -> list[Card]:
    return [m.card for m in quiz.platform.messages if m.channel.channel_id == f"D-{name}"]


async def test_no_last_call_after_a_restart_once_the_outline_is_due(quiz: QuizHarness) -> None:
    await quiz.command("now")
    round_ = await quiz.round()

    quiz.clock.advance(hours=3)  # down from just after the post until an hour past the outline
    await quiz.service.settle()

    assert [c.title for c in direct_to(quiz, "ann")] == [f"Question #{round_.number} is up"], (
        "a last call saying the outline comes in about 1h was sent after the outline"
    )
    assert any(m.key.endswith(":outline") for m in quiz.platform.messages)


async def test_a_last_call_whose_moment_passed_is_dropped(quiz: QuizHarness) -> None:
    await quiz.command("now")
    round_ = await quiz.round()

    quiz.clock.advance(hours=1, minutes=30)  # down at the last call's moment (1h after the post)
    await quiz.service.settle()
    assert [c.title for c in direct_to(quiz, "ann")] == [f"Question #{round_.number} is up"]

    quiz.clock.advance(minutes=31)  # the outline, on time
    await quiz.service.settle()
    assert any(m.key.endswith(":outline") for m in quiz.platform.messages)
    assert len(direct_to(quiz, "ann")) == 1


async def test_a_last_call_a_moment_late_is_still_sent(quiz: QuizHarness) -> None:
    await quiz.command("now")
    round_ = await quiz.round()

    quiz.clock.advance(hours=1, minutes=2)  # a busy outbox, not downtime
    await quiz.service.settle()

    assert direct_to(quiz, "ann")[-1].title == f"Last call for question #{round_.number}"
