"""A member's reveal posts the outline at once, on both store backends, also in a channel
whose rounds carry steps due later (the reveal-after time, the last call).

The reveal hands its pending actions to the outbox worker, oldest first, and the worker
performed them only up to the first one not due yet: the round's last call and
reveal-after step, queued with its question, come before the outline the reveal queued,
so the pass performed nothing, skipped the due index as well (nothing had been queued
since its last look) and slept until the last call. Found by the soak test
(``tests/core/scheduling/test_a_week_in_one_process.py``): the outline of a round revealed at 11:00
came at 12:00, with the last call's step.
"""

from __future__ import annotations

import pytest

from tests.harness import QuizHarness


@pytest.fixture
async def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    await quiz_on_both.command("config reveal-after 4h")
    await quiz_on_both.command("config last-call 1h")
    return quiz_on_both


async def test_the_worker_pass_after_a_reveal_posts_the_outline(quiz: QuizHarness) -> None:
    await quiz.command("notify on", by="ann")
    await quiz.command("now")
    await quiz.answer("bob", "an answer")  # the follow-ups are out: the reveal sends the outline
    # the running worker looked at the due index since: nothing due before the last call
    assert await quiz.service.outbox.run_once(idle_seconds=600) > 0
    quiz.clock.advance(minutes=30)

    await quiz.react("alice", "💡", settle=False)
    await quiz.service.outbox.run_once(idle_seconds=600)  # the pass the reveal wakes it for

    assert (await quiz.thread_titles())[-1] == "Sample answer outline"


async def test_the_outline_comes_once_and_no_last_call_follows(quiz: QuizHarness) -> None:
    await quiz.command("notify on", by="ann")
    await quiz.command("now")
    await quiz.react("alice", "💡")

    quiz.clock.advance(hours=5)
    await quiz.service.settle()

    assert (await quiz.thread_titles()).count("Sample answer outline") == 1
    ann = [m.card.title for m in quiz.platform.messages if m.channel.channel_id == "D-ann"]
    assert [t for t in ann if t.startswith("Last call")] == []
