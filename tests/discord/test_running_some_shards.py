"""A process running some of the bot's shards: one identify per shard, its guilds served,
its share of the REST budget."""

from __future__ import annotations

import pytest

from adapters.discord.factory import create_discord_platform
from adapters.discord.inbound import channel_ref
from adapters.discord.settings import DiscordSettings
from adapters.discord.shards import ShardPlan
from bot.kernel.events import Reaction
from bot.settings import read_settings
from tests.discord.conftest import (
    TOKEN,
    MemoryStore,
    PlatformFactory,
    Recorder,
    eventually,
    reaction_payload,
)
from tests.discord.fake_discord import FakeDiscord

ANN = 730000000000000001


async def test_a_process_identifies_each_of_its_shards_and_hears_its_guilds(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.add_member(ANN, "ann")
    assert (fake.guild_id >> 22) % 8 == 2  # the fake's guild lives on shard 2 of 8
    recorder = Recorder()
    platform = await make_platform(recorder, shards=ShardPlan((0, 1, 2, 3), 8), identify_interval=0)

    assert sorted(fake.identified_shards) == [(0, 8), (1, 8), (2, 8), (3, 8)]
    assert platform.connected
    assert platform.client.get_guild(fake.guild_id) is not None
    question = fake.add_message(fake.channel_id, fake.bot_id, "")
    payload = reaction_payload(fake, fake.channel_id, int(question["id"]), ANN, "💡")
    await fake.dispatch("MESSAGE_REACTION_ADD", payload, shard=2)
    await eventually(lambda: bool(recorder.events))

    assert [type(event) for event in recorder.events] == [Reaction]
    assert recorder.events[0].channel == channel_ref(fake.guild_id, fake.channel_id)


async def test_a_process_whose_shards_hold_none_of_the_guilds_still_becomes_ready(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform(
        Recorder(), shards=ShardPlan((4, 5, 6, 7), 8), identify_interval=0
    )

    assert sorted(fake.identified_shards) == [(4, 8), (5, 8), (6, 8), (7, 8)]
    assert platform.connected
    assert platform.client.get_guild(fake.guild_id) is None


async def test_one_shard_of_several_identifies_as_that_shard(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform(Recorder(), shards=ShardPlan((2,), 3))

    assert fake.identified_shards == [(2, 3)]
    assert platform.connected


@pytest.mark.parametrize(
    ("shards", "count", "rate"),
    [(None, None, 45.0), ("0-3", 8, 22.5), ("0", 8, 5.625), (None, 4, 45.0), ("1,3", 4, 22.5)],
)
def test_a_process_paces_at_its_share_of_the_bots_rest_budget(
    monkeypatch: pytest.MonkeyPatch, shards: str | None, count: int | None, rate: float
) -> None:
    monkeypatch.setenv("QUIZBOT_DISCORD_TOKEN", TOKEN)
    settings = read_settings(DiscordSettings, discord_shards=shards, discord_shard_count=count)
    platform = create_discord_platform(settings, topics=lambda: (), store=MemoryStore())

    assert platform._options.requests_per_second == pytest.approx(rate)
