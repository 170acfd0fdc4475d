"""The outbox worker sleeps until the next action is due or work is enqueued: no idle polling."""

from __future__ import annotations

import asyncio

from bot.errors import PlatformError
from bot.refs import MessageRef
from tests.harness import QuizHarness


async def test_after_a_failed_send_it_sleeps_until_the_retry_is_due(quiz: QuizHarness) -> None:
    quiz.platform.failures.append(PlatformError("rate limited", retry_after=30))
    await quiz.command("now", settle=False)
    assert await quiz.service.outbox.run_once(idle_seconds=600) == 30.0
    quiz.clock.advance(seconds=12)
    assert await quiz.service.outbox.run_once(idle_seconds=600) == 18.0
    assert quiz.platform.in_channel() == []


async def test_with_nothing_pending_it_sleeps_the_idle_bound(quiz: QuizHarness) -> None:
    assert await quiz.service.outbox.run_once(idle_seconds=600) == 600
    await quiz.command("now", settle=False)
    # Work was done: look again at once (the thread and hint follow the question).
    assert await quiz.service.outbox.run_once(idle_seconds=600) == 0
    await quiz.service.settle()
    assert await quiz.service.outbox.run_once(idle_seconds=600) == 600


async def test_an_enqueue_wakes_a_sleeping_worker(quiz: QuizHarness) -> None:
    hinted = asyncio.Event()
    react = quiz.platform.react

    async def react_and_tell(message: MessageRef, emoji: str) -> None:
        await react(message, emoji)
        hinted.set()

    quiz.platform.react = react_and_tell  # type: ignore[method-assign]
    stopping = asyncio.Event()
    worker = asyncio.create_task(quiz.service.outbox.run(stopping, idle_seconds=3600))
    try:
        await asyncio.sleep(0.05)  # the worker's first pass found nothing and went to sleep
        await quiz.command("now", settle=False)
        async with asyncio.timeout(5):  # far below the hour it would sleep otherwise
            await hinted.wait()
        question = f"round:{(await quiz.round()).id}:question"
        assert [m.key for m in quiz.platform.in_channel()] == [question]
    finally:
        stopping.set()
        await worker


async def test_a_reveals_handed_over_actions_need_no_second_pass(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.react("alice", "💡", settle=False)

    # The pass performs the handed-over follow-ups and outline, then reads the due index
    # once: nothing is left, so the worker sleeps instead of passing again at once.
    assert await quiz.service.outbox.run_once(idle_seconds=600) == 600
    assert (await quiz.thread_titles())[-1] == "Sample answer outline"
