"""The outbox worker sleeps until the next action is due or work is enqueued: no idle polling."""

from __future__ import annotations

import asyncio

import pytest

from bot.kernel import cards
from bot.kernel.errors import PlatformError
from bot.kernel.models import direct_draft
from bot.kernel.refs import ChannelRef, MessageRef
from tests.harness import QuizHarness
from tests.round_trips import RoundTripCounter


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


async def _round_trips_of(quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch) -> tuple[int, float]:
    """Store round trips of one outbox pass, and the sleep it asks for."""
    trips = RoundTripCounter()
    with trips.counting(monkeypatch):
        sleep = await quiz.service.outbox.run_once(idle_seconds=600)
    return trips.calls, sleep


async def test_after_a_look_found_nothing_a_reveal_is_sent_without_reading_the_due_index(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await quiz.command("now")
    await quiz.answer("bob", "an answer")  # the follow-ups are out: the reveal sends the outline
    assert await quiz.service.outbox.run_once(idle_seconds=600) == 600  # looked: nothing due
    await quiz.react("alice", "💡", settle=False)

    trips, sleep = await _round_trips_of(quiz, monkeypatch)

    # The outline's attempt and its completion; no read of the due index, no next-due query.
    assert (trips, sleep) == (2, 600)
    assert (await quiz.thread_titles())[-1] == "Sample answer outline"


async def test_an_enqueue_since_the_last_look_makes_the_reveals_pass_read_the_due_index(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    assert await quiz.service.outbox.run_once(idle_seconds=600) == 600
    dm = ChannelRef(quiz.channel.platform, quiz.channel.workspace, "D-alice")
    store = quiz.service.store
    await store.outbox.enqueue(
        [direct_draft(dm, cards.info("Practice"), "practice:1:q")], quiz.clock.now()
    )
    quiz.service.outbox.wake()  # as every enqueue does
    await quiz.react("alice", "💡", settle=False)

    await quiz.service.outbox.run_once(idle_seconds=600)

    assert (await quiz.thread_titles())[-1] == "Sample answer outline"
    assert [m.key for m in quiz.platform.messages if m.channel == dm] == ["practice:1:q"]
