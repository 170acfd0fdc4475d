"""Gateway payloads in, the core's events out (fed through the client's parsers)."""

from __future__ import annotations

import logging

import pytest

from adapters.discord.inbound import channel_ref, member_ref
from bot.kernel.events import Reaction, Reply
from bot.kernel.refs import MessageRef, ThreadRef
from bot.kernel.render import Card
from tests.discord.conftest import (
    PlatformFactory,
    Recorder,
    eventually,
    feed,
    message_payload,
    reaction_payload,
)
from tests.discord.fake_discord import FakeDiscord

ANN = 730000000000000001
ROBOT = 730000000000000002


async def test_a_reaction_on_a_message_the_client_never_saw_becomes_a_reaction(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder()
    platform = await make_platform(recorder)
    question = fake.add_message(fake.channel_id, fake.bot_id, "")  # posted before a restart
    assert platform.client.get_channel(fake.channel_id) is not None  # channel known, message not

    feed(
        platform,
        "MESSAGE_REACTION_ADD",
        reaction_payload(fake, fake.channel_id, int(question["id"]), ANN, "💡"),
    )
    await eventually(lambda: bool(recorder.events))

    channel = channel_ref(fake.guild_id, fake.channel_id)
    assert recorder.events == [
        Reaction(
            event_id=f"reaction:{question['id']}:{ANN}:💡",
            channel=channel,
            message=MessageRef(channel, question["id"]),
            member=member_ref(fake.guild_id, ANN, "ann"),
            emoji="💡",
        )
    ]


async def test_the_bots_own_reactions_and_messages_are_ignored(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder()
    platform = await make_platform(recorder)
    question = fake.add_message(fake.channel_id, fake.bot_id, "")
    thread_id = int(question["id"])
    await platform.open_thread(
        MessageRef(channel_ref(fake.guild_id, fake.channel_id), question["id"]), "R", key="k"
    )
    mine = fake.add_message(thread_id, fake.bot_id, "follow-ups")
    theirs = fake.add_message(thread_id, ANN, "marker")

    feed(
        platform,
        "MESSAGE_REACTION_ADD",
        reaction_payload(fake, fake.channel_id, thread_id, fake.bot_id, "💡"),
    )
    feed(platform, "MESSAGE_CREATE", message_payload(fake, mine))
    feed(platform, "MESSAGE_CREATE", message_payload(fake, theirs))
    await eventually(lambda: bool(recorder.events))

    assert [e.event_id for e in recorder.events] == [theirs["id"]]


async def test_thread_messages_become_replies_edits_and_votes(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.add_member(ANN, "ann")
    fake.add_member(ROBOT, "robot", bot=True)
    recorder = Recorder()
    platform = await make_platform(recorder)
    channel = channel_ref(fake.guild_id, fake.channel_id)
    question = await platform.post(channel, Card(title="Q"), key="round:1:question")
    thread = await platform.open_thread(question, "Round 1", key="round:1:thread")
    thread_id = int(thread.thread_id)
    answer = fake.add_message(thread_id, ANN, "Use <@&1> and @everyone")
    from_bot = fake.add_message(thread_id, ROBOT, "beep")
    outside = fake.add_message(fake.channel_id, ANN, "not in a thread")

    for message in (answer, from_bot, outside):
        feed(platform, "MESSAGE_CREATE", message_payload(fake, message))
    edited = {**answer, "content": "Use sharding", "edited_timestamp": "2025-01-06T09:05:00+00:00"}
    feed(platform, "MESSAGE_UPDATE", message_payload(fake, edited))
    feed(
        platform,
        "MESSAGE_REACTION_ADD",
        reaction_payload(fake, thread_id, int(answer["id"]), ROBOT, "👍"),
    )
    await eventually(lambda: len(recorder.events) == 4)

    in_thread = channel_ref(fake.guild_id, thread_id)
    reply, bot_reply, edit, vote = recorder.events
    assert reply == Reply(
        event_id=answer["id"],
        channel=channel,
        thread=ThreadRef(channel, thread.thread_id),
        message=MessageRef(in_thread, answer["id"]),
        member=member_ref(fake.guild_id, ANN, "ann"),
        text="Use <@&1> and @everyone",
    )
    assert isinstance(bot_reply, Reply) and bot_reply.is_bot
    assert isinstance(edit, Reply) and edit.edited and edit.text == "Use sharding"
    assert edit.event_id == f"edit:{answer['id']}:2025-01-06T09:05:00+00:00"
    assert isinstance(vote, Reaction) and vote.channel == channel and vote.is_bot
    assert vote.message == MessageRef(in_thread, answer["id"])


async def test_a_thread_lookup_that_fails_transiently_is_retried_and_the_answer_kept(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder()
    platform = await make_platform(recorder)
    question = fake.add_message(fake.channel_id, fake.bot_id, "")
    fake._create_thread(fake.channel_id, int(question["id"]), {"name": "R"})  # made elsewhere
    answer = fake.add_message(int(question["id"]), ANN, "answer")
    fake.fail_next("GET", rf"/channels/{question['id']}", 503, {"code": 0, "message": "down"})

    feed(platform, "MESSAGE_CREATE", message_payload(fake, answer))
    await eventually(lambda: bool(recorder.events))

    assert [e.event_id for e in recorder.events] == [answer["id"]]
    assert len(fake.requests_to("GET", rf"/channels/{question['id']}")) == 2


async def test_an_event_in_a_channel_unknown_to_the_bot_is_ignored_with_a_debug_line(
    fake: FakeDiscord, make_platform: PlatformFactory, caplog: pytest.LogCaptureFixture
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder()
    platform = await make_platform(recorder)
    unknown = 799999999999999999
    message = {**fake.add_message(fake.channel_id, ANN, "hi"), "channel_id": str(unknown)}

    with caplog.at_level(logging.DEBUG):
        feed(platform, "MESSAGE_CREATE", message_payload(fake, message))
        await eventually(
            lambda: any("unknown to the bot" in r.getMessage() for r in caplog.records)
        )

    assert recorder.events == []
    assert [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info] == []
