"""An app removed from a workspace: its quiz channels stop (no scheduled round, no pending
send), once however often it is said; installing it again restarts just those channels."""

from __future__ import annotations

import dataclasses

from bot.kernel.errors import WORKSPACE_REMOVED
from bot.kernel.refs import ChannelRef
from tests.harness import QuizHarness


async def test_a_removal_stops_the_workspace_once_and_a_reinstall_restarts_it(
    quiz: QuizHarness,
) -> None:
    await quiz.command("schedule daily 09:00")
    engine = quiz.service.engine
    archived = await engine.create_channel(ChannelRef("fake", "team", "C2", "archived"))
    await engine.save_channel(
        archived, dataclasses.replace(archived, disabled_reason="is_archived")
    )
    elsewhere = await engine.create_channel(ChannelRef("fake", "other-team", "C3", "other"))
    await quiz.command("now", settle=False)  # queued, not sent yet
    sent_before = len(quiz.platform.messages)

    assert await quiz.service.disable_workspace("fake", "team") == 1
    assert await quiz.service.disable_workspace("fake", "team") == 0  # a redelivery
    channel = await engine.channel(quiz.channel)
    assert channel is not None and channel.disabled_reason == WORKSPACE_REMOVED
    assert quiz.service.next_post(channel) is None
    await quiz.service.settle()
    await quiz.service.post_slot(channel.id, quiz.clock.now())
    await quiz.service.settle()
    assert len(quiz.platform.messages) == sent_before
    assert (await quiz.service.store.channels.get_channel_by_id(elsewhere.id)) == elsewhere

    assert await quiz.service.enable_workspace("fake", "team") == 1
    assert await quiz.service.enable_workspace("fake", "team") == 0
    channel = await engine.channel(quiz.channel)
    assert channel is not None and channel.disabled_reason is None
    assert quiz.service.next_post(channel) is not None
    still = await quiz.service.store.channels.get_channel_by_id(archived.id)
    assert still is not None and still.disabled_reason == "is_archived"
