"""Connecting through an API override: REST base, gateway from GET /gateway/bot, READY."""

from __future__ import annotations

from discord.gateway import DiscordWebSocket
from discord.http import Route

from tests.discord.conftest import PlatformFactory, Recorder
from tests.discord.fake_discord import FakeDiscord


async def test_start_uses_the_api_override_and_its_gateway(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform(Recorder())

    assert fake.base_url == Route.BASE
    assert str(DiscordWebSocket.DEFAULT_GATEWAY) == fake.gateway_url
    assert fake.requests_to("GET", "/gateway/bot")
    assert fake.identified == 1
    assert platform.connected
    assert platform.client.get_guild(fake.guild_id) is not None
