"""Discord's own settings (``QUIZBOT_DISCORD_*``), and their checks."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator

from adapters.discord.shards import paced_rate, shard_plan
from adapters.plugin import PlatformSettings, SettingsProblem, one_line_token
from bot.settings import SettingsError

SHARDS_FIX = "correct QUIZBOT_DISCORD_SHARDS and QUIZBOT_DISCORD_SHARD_COUNT"


class DiscordSettings(PlatformSettings):
    """Discord's settings: the bot token, and how the bot reaches Discord."""

    discord_token: SecretStr | None = Field(default=None, description="Discord bot token.")
    discord_api_url: str | None = Field(
        default=None, description="Discord REST base URL (a rate-limit proxy, tests)."
    )
    discord_dev_guild: int | None = Field(
        default=None, description="Sync /quiz to this guild only (instant, for development)."
    )
    discord_requests_per_second: float = Field(
        default=45.0,
        gt=0,
        le=50,
        description="REST requests per second for the whole bot (Discord's global limit is 50 "
        "per bot); a process running some shards paces at this × its shards / shard count.",
    )
    discord_shards: str | None = Field(
        default=None,
        description="The gateway shards this process runs, e.g. 0-3 or 0,2,5 (needs the count).",
    )
    discord_shard_count: int | None = Field(
        default=None,
        description="The bot's total number of gateway shards, the same in every process.",
    )

    @field_validator("discord_token")
    @classmethod
    def _one_line_token(cls, value: SecretStr | None) -> SecretStr | None:
        return one_line_token(value)


def discord_configured(settings: DiscordSettings) -> bool:
    """'auto' runs Discord: its token is set."""
    return settings.discord_token is not None


def discord_required(settings: DiscordSettings) -> tuple[str, ...]:
    return ("discord_token",)


def check_discord_settings(settings: DiscordSettings, running: bool) -> str:
    """The API override is an http(s) URL and the shards a plan (shards only when Discord
    runs); what the doctor reports: the shards this process runs and its REST pace."""
    if running and settings.discord_api_url:
        from adapters.discord.endpoint import check_api_url

        try:
            check_api_url(settings.discord_api_url)
        except SettingsError as problem:
            raise SettingsProblem(str(problem), "correct QUIZBOT_DISCORD_API_URL") from None
    try:
        plan = shard_plan(settings.discord_shards, settings.discord_shard_count)
    except SettingsError as problem:
        raise SettingsProblem(str(problem), SHARDS_FIX) from None
    if plan is None:
        return ""
    if not running:
        raise SettingsProblem(
            "--shards and --shard-count are for the Discord platform only", SHARDS_FIX
        )
    rate = paced_rate(settings.discord_requests_per_second, plan)
    return f"Discord {plan.describe()} at {rate:g} REST requests/s"
