"""Charts on Discord: the PNG goes as an attachment that the embed shows."""

from __future__ import annotations

from adapters.discord.inbound import channel_ref
from bot.kernel.render import Card, Image, Response
from tests.chart_cards import PNG, RECAP_CARD
from tests.discord.conftest import PlatformFactory, Recorder, command_payload, eventually, feed
from tests.discord.fake_discord import FakeDiscord

ANN = 730000000000000001


async def test_a_recap_carries_its_chart_as_an_attachment_shown_in_the_embed(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform()
    channel = channel_ref(fake.guild_id, fake.channel_id, "quiz")

    await platform.post(channel, RECAP_CARD, key="recap:1:2026-W49")

    [message] = fake.channel_messages()
    [attachment] = message["attachments"]
    assert attachment["filename"] == "recap-2026-W49.png"
    assert attachment["description"] == "Weekly recap: topic mastery and members per day"
    [embed] = message["embeds"]
    assert embed["image"]["url"] == "attachment://recap-2026-W49.png"
    assert embed["title"] == RECAP_CARD.title
    [upload] = fake.uploads
    assert upload.content == PNG


async def test_a_card_without_a_chart_sends_no_file(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform()
    channel = channel_ref(fake.guild_id, fake.channel_id, "quiz")
    await platform.post(channel, Card(title="Question #1", body="Why?"), key="round:1:question")
    [message] = fake.channel_messages()
    assert message["attachments"] == []
    assert "image" not in message["embeds"][0]
    assert fake.uploads == []


async def test_quiz_me_shows_its_chart_privately(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.add_member(ANN, "ann")
    me = Card(title="ann in this channel", image=Image(PNG, "progress.png", "mastery"))
    platform = await make_platform(Recorder(answer=Response(me)))

    feed(platform, "INTERACTION_CREATE", command_payload(fake, ANN, "me", {}))
    await eventually(lambda: len(fake.interaction_replies) == 2)

    followup = fake.interaction_replies[1]
    assert followup["flags"] & 64  # ephemeral
    assert followup["embeds"][0]["image"]["url"] == "attachment://progress.png"
    assert [u.filename for u in fake.uploads] == ["progress.png"]
    assert fake.uploads[0].content == PNG
