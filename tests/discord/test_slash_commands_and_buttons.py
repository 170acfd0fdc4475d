"""/quiz and the Reveal button: options to the core's words, admin checks, replies."""

from __future__ import annotations

from adapters.discord.inbound import channel_ref, member_ref
from bot.kernel.events import ButtonPress, Command
from bot.kernel.refs import MessageRef
from bot.kernel.render import Card, Response
from tests.discord.conftest import (
    PlatformFactory,
    Recorder,
    button_payload,
    command_payload,
    eventually,
    feed,
)
from tests.discord.fake_discord import MANAGE_GUILD, FakeDiscord

ANN = 730000000000000001
LEAD = 730000000000000003
EPHEMERAL = 64


async def test_leaderboard_options_become_the_core_words_and_a_private_reply(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder(answer=Response(Card(title="Leaderboard · week")))
    platform = await make_platform(recorder)

    feed(
        platform,
        "INTERACTION_CREATE",
        command_payload(fake, ANN, "leaderboard", {"period": "week"}, interaction_id=555),
    )
    await eventually(lambda: len(fake.interaction_replies) == 2)

    channel = channel_ref(fake.guild_id, fake.channel_id, "quiz")
    assert recorder.events == [
        Command("555", channel, member_ref(fake.guild_id, ANN, "ann"), "leaderboard", ("week",))
    ]
    deferred, followup = fake.interaction_replies
    assert deferred["type"] == 5 and deferred["data"]["flags"] & EPHEMERAL
    assert followup["embeds"][0]["title"] == "Leaderboard · week"
    assert followup["flags"] & EPHEMERAL
    assert followup["allowed_mentions"] == {"parse": []}
    assert fake.channel_messages() == []


async def test_a_public_response_is_a_channel_message(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder(answer=Response(Card(title="Stats"), public=True))
    platform = await make_platform(recorder)

    feed(platform, "INTERACTION_CREATE", command_payload(fake, ANN, "stats", {"public": True}))
    await eventually(lambda: any(r.get("deleted") for r in fake.interaction_replies))

    assert isinstance(recorder.events[0], Command) and recorder.events[0].args == ("public",)
    [message] = fake.channel_messages()
    assert message["embeds"][0]["title"] == "Stats"


async def test_manage_guild_makes_a_quiz_admin_and_the_core_decides_admin_commands(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.add_member(ANN, "ann")
    fake.add_member(LEAD, "lead", permissions=MANAGE_GUILD)
    recorder = Recorder(answer=Response(Card(title="Schedule set")))
    platform = await make_platform(recorder)
    schedule = {"spec": "weekdays 09:30", "timezone": "Europe/Berlin"}

    feed(platform, "INTERACTION_CREATE", command_payload(fake, ANN, "schedule", schedule))
    feed(platform, "INTERACTION_CREATE", command_payload(fake, LEAD, "schedule", schedule))
    await eventually(lambda: len(recorder.events) == 2)

    # The adapter refuses no one itself: the core's inbound chain asks is_admin.
    for command in recorder.events:
        assert isinstance(command, Command)
        assert command.args == ("weekdays", "09:30", "Europe/Berlin")
    assert {e.member.member_id for e in recorder.events} == {str(ANN), str(LEAD)}
    channel = channel_ref(fake.guild_id, fake.channel_id)
    assert await platform.is_admin(member_ref(fake.guild_id, LEAD), channel)
    assert not await platform.is_admin(member_ref(fake.guild_id, ANN), channel)


async def test_is_admin_asks_discord_for_a_member_not_seen_in_an_interaction(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.add_member(LEAD, "lead", permissions=MANAGE_GUILD)
    fake.add_member(ANN, "ann")
    platform = await make_platform()
    channel = channel_ref(fake.guild_id, fake.channel_id)

    assert await platform.is_admin(member_ref(fake.guild_id, LEAD), channel)
    assert not await platform.is_admin(member_ref(fake.guild_id, ANN), channel)
    assert fake.requests_to("GET", rf"/guilds/{fake.guild_id}/members/{LEAD}")


async def test_the_reveal_button_works_on_a_message_from_before_a_restart(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder(answer=Response(Card(title="Revealing")))
    platform = await make_platform(recorder)
    question = fake.add_message(
        fake.channel_id,
        fake.bot_id,
        "",
        components=[
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": "Reveal", "custom_id": "quizbot:reveal:42"}
                ],
            }
        ],
    )

    feed(
        platform,
        "INTERACTION_CREATE",
        button_payload(fake, ANN, question, "quizbot:reveal:42", interaction_id=777),
    )
    await eventually(lambda: len(fake.interaction_replies) == 2)

    channel = channel_ref(fake.guild_id, fake.channel_id, "quiz")
    assert recorder.events == [
        ButtonPress(
            "777",
            channel,
            MessageRef(channel_ref(fake.guild_id, fake.channel_id), question["id"]),
            member_ref(fake.guild_id, ANN, "ann"),
            "reveal",
            "42",
        )
    ]


async def test_a_failing_handler_is_shown_to_the_member(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.add_member(ANN, "ann")
    recorder = Recorder(failure=RuntimeError("database is locked"))
    platform = await make_platform(recorder)

    feed(platform, "INTERACTION_CREATE", command_payload(fake, ANN, "me"))
    await eventually(lambda: len(fake.interaction_replies) == 2)

    told = fake.interaction_replies[1]
    assert "failed" in told["embeds"][0]["description"]
    assert told["flags"] & EPHEMERAL
