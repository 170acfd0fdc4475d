"""Command sync only on change, READY many times with background work once, stopping."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from adapters.discord.factory import create_discord_platform
from adapters.discord.settings import DiscordSettings
from bot.settings import SettingsError
from tests.discord.conftest import MemoryStore, PlatformFactory, Recorder, eventually
from tests.discord.fake_discord import FakeDiscord

DEV_GUILD = 740000000000000001


async def test_commands_sync_once_then_only_when_their_definitions_change(
    fake: FakeDiscord, make_platform: PlatformFactory, memory_store: MemoryStore
) -> None:
    first = await make_platform()
    await first.stop()
    second = await make_platform()
    await second.stop()

    [(target, commands)] = fake.synced_commands
    assert target == "global"
    # admins' own commands under /quiz-admin: one command takes only 25 subcommands
    assert [c["name"] for c in commands] == ["quiz", "quiz-admin"]
    assert all(c["dm_permission"] is False for c in commands)  # guild only
    quiz, admin = commands
    assert quiz["default_member_permissions"] is None  # every member sees /quiz
    assert int(admin["default_member_permissions"]) == 1 << 5  # manage_guild
    assert {o["name"] for o in admin["options"]} == {
        "now",
        "reveal",
        "best",
        "skip",
        "pause",
        "resume",
        "review",
    }
    [stored] = memory_store.meta.values.values()

    memory_store.meta.values = {k: "an older definition" for k in memory_store.meta.values}
    await make_platform()

    assert len(fake.synced_commands) == 2
    assert list(memory_store.meta.values.values()) == [stored]


async def test_a_dev_guild_gets_the_commands_instead_of_global(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    await make_platform(dev_guild=DEV_GUILD)

    assert [t for t, _ in fake.synced_commands] == [f"guild:{DEV_GUILD}"]
    assert fake.requests_to("PUT", rf"/applications/\d+/guilds/{DEV_GUILD}/commands")


async def test_a_new_session_fires_ready_again_without_restarting_background_work(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    recorder = Recorder()
    platform = await make_platform(recorder)
    gateway_task = platform._gateway_task

    async def identify_now(shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before identifying again, for Discord's identify limit."""

    platform.client.before_identify_hook = identify_now  # type: ignore[method-assign]

    await fake.invalidate_session()
    await eventually(lambda: fake.identified == 2 and platform.connected)

    assert platform._gateway_task is gateway_task
    assert len(fake.synced_commands) == 1
    assert len(fake.requests_to("GET", "/users/@me")) == 1  # logged in once


def test_the_factory_reads_the_settings(fake: FakeDiscord, memory_store: MemoryStore) -> None:
    settings = DiscordSettings(
        discord_token=SecretStr("fake-token"),
        discord_api_url=fake.base_url,
        discord_dev_guild=DEV_GUILD,
    )

    platform = create_discord_platform(settings, topics=lambda: ["gpu"], store=memory_store)

    assert platform.name == "discord"
    assert not platform.connected
    assert platform._options.api_url == fake.base_url
    assert platform._options.dev_guild == DEV_GUILD


def test_the_factory_refuses_a_missing_token_or_a_bad_api_url(memory_store: MemoryStore) -> None:
    with pytest.raises(SettingsError, match="QUIZBOT_DISCORD_TOKEN"):
        create_discord_platform(
            DiscordSettings(discord_token=None), topics=list, store=memory_store
        )
    with pytest.raises(SettingsError, match="QUIZBOT_DISCORD_API_URL"):
        create_discord_platform(
            DiscordSettings(discord_token=SecretStr("t"), discord_api_url="discord.example"),
            topics=list,
            store=memory_store,
        )


async def test_stop_disconnects(fake: FakeDiscord, make_platform: PlatformFactory) -> None:
    platform = await make_platform()
    assert platform.connected

    await platform.stop()

    assert not platform.connected
    assert platform.client.is_closed()
