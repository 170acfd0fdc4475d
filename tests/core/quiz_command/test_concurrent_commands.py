"""Work that arrives at the same moment: each is done once, and none undoes another."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest

from bot.kernel.events import Command
from bot.kernel.refs import ChannelRef
from tests.harness import QuizHarness
from tests.store_reads import question_ask_counts


async def command(quiz: QuizHarness, channel: ChannelRef, text: str, event_id: str) -> None:
    name, *args = text.split()
    response = await quiz.service.handle(
        Command(event_id, channel, quiz.member("admin"), name, tuple(args))
    )
    assert response is not None and response.card.kind.value != "error", response


async def test_two_rounds_started_at_once_never_pick_the_same_question(quiz: QuizHarness) -> None:
    engine, store = quiz.service.engine, quiz.service.store
    for number in range(6):
        channel = await engine.create_channel(
            ChannelRef(quiz.platform.name, "team", f"C-now-{number}", "now")
        )
        slot = quiz.clock.now()
        await asyncio.gather(  # a scheduled slot and a `/quiz now` a millisecond later
            engine.start_round(channel, scheduled_for=slot, scheduled=True, topic="gpu"),
            engine.start_round(
                channel,
                scheduled_for=slot + timedelta(milliseconds=1),
                scheduled=False,
                topic="gpu",
            ),
        )
        counts = await question_ask_counts(store, channel.id)
        # gpu has two questions: one each, never the same one twice
        assert sorted(counts.values()) == [1, 1], f"channel {number}: {counts}"


async def test_first_admin_commands_racing_in_a_new_channel_create_it_once(
    quiz: QuizHarness, caplog: pytest.LogCaptureFixture
) -> None:
    channel = ChannelRef(quiz.platform.name, "team", "C-new", "new")
    with caplog.at_level(logging.INFO, logger="bot.rounds.engine"):
        await asyncio.gather(
            command(quiz, channel, "pause", "first"),
            command(quiz, channel, "schedule daily 10:00", "second"),
            command(quiz, channel, "config grace 2", "third"),
        )
    assert [r.getMessage() for r in caplog.records].count("quiz channel set up") == 1
    channels = [c for c in await quiz.service.store.channels.list_channels() if c.ref == channel]
    assert len(channels) == 1
    [created] = channels
    # and no command undid another's change with a copy read before it
    assert (created.paused, created.schedule, created.grace_hours) == (True, "daily 10:00", 2)
