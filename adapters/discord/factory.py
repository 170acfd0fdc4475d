"""The Discord platform built from its settings (``QUIZBOT_DISCORD_*``)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from adapters.discord.connector import DiscordOptions, DiscordPlatform, DiscordStore
from adapters.discord.endpoint import check_api_url
from adapters.discord.settings import DiscordSettings
from adapters.discord.shards import paced_rate, shard_plan
from adapters.plugin import require
from bot.settings import SettingsError

log = logging.getLogger(__name__)


def create_discord_platform(
    settings: DiscordSettings,
    *,
    topics: Callable[[], Sequence[str]],
    store: DiscordStore,
    vote_emoji: str = "👍",
) -> DiscordPlatform:
    """The Discord platform from settings (``QUIZBOT_DISCORD_*``)."""
    require(settings, "discord_token")
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    if not token.strip():
        raise SettingsError("QUIZBOT_DISCORD_TOKEN is empty")
    if settings.discord_api_url:
        check_api_url(settings.discord_api_url)
    shards = shard_plan(settings.discord_shards, settings.discord_shard_count)
    rate = paced_rate(settings.discord_requests_per_second, shards)
    if shards is not None:
        log.info("running Discord %s, paced at %.1f REST requests/s", shards.describe(), rate)
    options = DiscordOptions(
        token=token,
        api_url=settings.discord_api_url,
        dev_guild=settings.discord_dev_guild,
        vote_emoji=vote_emoji,
        requests_per_second=rate,
        shards=shards,
    )
    return DiscordPlatform(options, topics=topics, store=store)
