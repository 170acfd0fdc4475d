"""Fixtures for the Discord adapter: the fake Discord, a connected platform, payload builders."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from adapters.discord.connector import DiscordOptions, DiscordPlatform
from adapters.discord.endpoint import restore_defaults
from adapters.discord.slash_commands import discord_path
from adapters.unfinished_sends import UnfinishedSends
from bot.features import SUBCOMMANDS_BY_NAME
from bot.kernel.events import Event
from bot.kernel.models import ChannelSettings, Round
from bot.kernel.render import Response
from tests.discord.fake_discord import FakeDiscord

TOKEN = "fake-token-not-a-secret"
TOPICS = ("gpu", "networking", "storage")


@dataclass
class MemoryMeta:
    values: dict[str, str] = field(default_factory=dict)

    async def get_meta(self, key: str) -> str | None:
        return self.values.get(key)

    async def set_meta(self, key: str, value: str) -> None:
        self.values[key] = value


@dataclass
class MemoryChannels:
    settings: list[ChannelSettings] = field(default_factory=list)

    async def list_channels(self) -> list[ChannelSettings]:
        return list(self.settings)


@dataclass
class MemoryRounds:
    open: dict[int, Round] = field(default_factory=dict)

    async def open_round(self, channel_id: int) -> Round | None:
        return self.open.get(channel_id)


@dataclass
class MemoryStore:
    """The slice of the Store the adapter needs, in memory."""

    meta: MemoryMeta = field(default_factory=MemoryMeta)
    channels: MemoryChannels = field(default_factory=MemoryChannels)
    rounds: MemoryRounds = field(default_factory=MemoryRounds)
    unfinished_cards: UnfinishedSends = field(default_factory=UnfinishedSends)


@dataclass
class Recorder:
    """An event handler that records what the platform delivered."""

    events: list[Event] = field(default_factory=list)
    answer: Response | None = None
    failure: Exception | None = None

    async def __call__(self, event: Event) -> Response | None:
        self.events.append(event)
        if self.failure is not None:
            raise self.failure
        return self.answer


async def eventually(predicate: Callable[[], bool], within: float = 5.0) -> None:
    """Wait until ``predicate()`` holds: discord.py delivers each gateway event in a task
    of its own, so the test polls the state those tasks change."""
    async with asyncio.timeout(within):
        while not predicate():  # noqa: ASYNC110 - no event to wait on inside discord.py
            await asyncio.sleep(0.005)


def feed(platform: DiscordPlatform, event: str, payload: dict[str, Any]) -> None:
    """Hand a gateway dispatch payload to the client's parsers, as the websocket would."""
    platform.client._connection.parsers[event](payload)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.close()
        restore_defaults()


@pytest.fixture
def memory_store() -> MemoryStore:
    return MemoryStore()


PlatformFactory = Callable[..., Awaitable[DiscordPlatform]]


@pytest.fixture
async def make_platform(
    fake: FakeDiscord, memory_store: MemoryStore
) -> AsyncIterator[PlatformFactory]:
    started: list[DiscordPlatform] = []

    async def make(
        handler: Callable[[Event], Awaitable[Response | None]] | None = None,
        *,
        store: Any = None,
        dev_guild: int | None = None,
        start: bool = True,
        **settings: Any,
    ) -> DiscordPlatform:
        options = DiscordOptions(
            token=TOKEN,
            api_url=fake.base_url,
            dev_guild=dev_guild,
            guild_ready_timeout=0.05,
            **settings,
        )
        platform = DiscordPlatform(
            options, topics=lambda: TOPICS, store=store if store is not None else memory_store
        )
        started.append(platform)
        if start:
            await platform.start(handler or Recorder())
        return platform

    yield make
    for platform in started:
        await platform.stop()


# gateway payload builders


def member_payload(fake: FakeDiscord, user_id: int) -> dict[str, Any]:
    return fake.member_json(user_id)


def reaction_payload(
    fake: FakeDiscord, channel_id: int, message_id: int, user_id: int, emoji: str
) -> dict[str, Any]:
    return {
        "user_id": str(user_id),
        "channel_id": str(channel_id),
        "message_id": str(message_id),
        "guild_id": str(fake.guild_id),
        "member": fake.member_json(user_id),
        "emoji": {"id": None, "name": emoji},
        "burst": False,
        "type": 0,
    }


def message_payload(fake: FakeDiscord, message: dict[str, Any]) -> dict[str, Any]:
    author = int(message["author"]["id"])
    return {**message, "guild_id": str(fake.guild_id), "member": fake.member_json(author)}


def command_payload(
    fake: FakeDiscord,
    user_id: int,
    subcommand: str,
    options: dict[str, Any] | None = None,
    *,
    interaction_id: int | None = None,
    channel_id: int | None = None,
) -> dict[str, Any]:
    option_list = [
        {"name": name, "type": 5 if isinstance(value, bool) else 3, "value": value}
        for name, value in (options or {}).items()
    ]
    declared = SUBCOMMANDS_BY_NAME.get(subcommand)
    path = ("quiz", subcommand) if declared is None else discord_path(declared)
    chosen: dict[str, Any] = {"name": subcommand, "type": 1, "options": option_list}
    if len(path) == 3:  # in a group of related subcommands: /quiz round grade
        chosen = {"name": path[1], "type": 2, "options": [chosen]}
    data = {"id": "1", "name": path[0], "type": 1, "options": [chosen]}
    return _interaction(fake, 2, user_id, data, interaction_id, channel_id)


def button_payload(
    fake: FakeDiscord,
    user_id: int,
    message: dict[str, Any],
    custom_id: str,
    *,
    interaction_id: int | None = None,
) -> dict[str, Any]:
    data = {"custom_id": custom_id, "component_type": 2}
    payload = _interaction(fake, 3, user_id, data, interaction_id, int(message["channel_id"]))
    payload["message"] = message
    return payload


def modal_submit_payload(
    fake: FakeDiscord, user_id: int, custom_id: str, values: dict[str, str]
) -> dict[str, Any]:
    """A member submits the modal ``custom_id`` the bot opened for them (type 5)."""
    rows = [
        {"type": 1, "components": [{"type": 4, "custom_id": name, "value": text}]}
        for name, text in values.items()
    ]
    data = {"custom_id": custom_id, "components": rows}
    return _interaction(fake, 5, user_id, data, None, None)


def _interaction(
    fake: FakeDiscord,
    kind: int,
    user_id: int,
    data: dict[str, Any],
    interaction_id: int | None,
    channel_id: int | None,
) -> dict[str, Any]:
    channel = fake.channels[channel_id or fake.channel_id]
    permissions = fake.member_permissions.get(user_id, 0) | 0x400 | 0x800
    member = {**fake.member_json(user_id), "permissions": str(permissions)}
    return {
        "id": str(interaction_id or fake.next_id()),
        "application_id": str(fake.bot_id),
        "type": kind,
        "data": data,
        "guild_id": str(fake.guild_id),
        "channel_id": channel["id"],
        "channel": channel,
        "member": member,
        "token": f"token-{fake.next_id()}",
        "version": 1,
        "app_permissions": str(0x400 | 0x800),
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(fake.guild_id)},
        "context": 0,
        "attachment_size_limit": 10 * 1024 * 1024,
    }
