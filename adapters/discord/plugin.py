"""Discord as a plugin: its settings, its ``quizbot run`` flags (shards), its doctor check,
its ``quizbot discord`` commands and its factory."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adapters.checks import Check
from adapters.discord.settings import (
    DiscordSettings,
    check_discord_settings,
    discord_configured,
    discord_required,
)
from adapters.plugin import DoctorContext, Flag, PlatformPlugin, Wiring

if TYPE_CHECKING:
    from adapters.discord.connector import DiscordPlatform


def create_discord(settings: DiscordSettings, wiring: Wiring) -> DiscordPlatform:
    from adapters.discord.factory import create_discord_platform

    return create_discord_platform(settings, topics=wiring.topics, store=wiring.store)


async def discord_doctor(settings: DiscordSettings, context: DoctorContext) -> list[Check]:
    from adapters.discord.doctor import discord_checks

    return await discord_checks(settings, context)


def discord_cli_commands(subparsers: Any) -> None:
    from adapters.discord import cli

    cli.register(subparsers)


DISCORD = PlatformPlugin(
    name="discord",
    title="Discord",
    workspace="Discord server id",
    settings=DiscordSettings,
    build=create_discord,
    configured=discord_configured,
    required=discord_required,
    check=check_discord_settings,
    doctor=discord_doctor,
    cli_commands=discord_cli_commands,
    flags=(
        Flag(
            ("--shards",),
            "discord_shards",
            "Discord: the gateway shards this process runs, e.g. 0-3 or 0,2,5 (with --shard-count)",
        ),
        Flag(
            ("--shard-count",),
            "discord_shard_count",
            "Discord: the bot's total number of shards, the same in every process",
            type=int,
        ),
    ),
)
