"""Settings: ``QUIZBOT_*`` environment variables, a ``.env`` file and an optional TOML file.

Precedence, highest first: values passed in code (CLI flags), environment,
``.env``, the TOML file given with ``--config``, defaults.
"""

from __future__ import annotations

import difflib
import json
import tomllib
from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from bot.kernel.errors import QuizError
from bot.kernel.models import FollowUpPolicy
from bot.kernel.quoting import quoted
from bot.scheduling.question_schedule import parse_question_schedule
from bot.scheduling.schedule_spec import ScheduleError, parse_timezone

PLATFORMS = ("console", "slack", "discord")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(QuizError):
    """A setting is missing or wrong; the message names the variable to set."""


class Settings(BaseSettings):
    """Every operator setting, from the environment, .env and TOML; secrets stay secret."""

    model_config = SettingsConfigDict(
        env_prefix="QUIZBOT_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        env_ignore_empty=True,  # `cp .env.example .env` leaves unused settings empty
        hide_input_in_errors=True,
    )
    toml_path: ClassVar[Path | None] = None

    platform: str = Field(
        default="auto",
        description="console, slack, discord, or a comma list such as 'discord,slack'; "
        "'auto' picks the platforms whose tokens are set, else the console.",
    )
    db_path: Path = Field(default=Path("quizbot.db"), description="The SQLite database file.")
    database_url: SecretStr | None = Field(
        default=None,
        description="sqlite:///path/to/quizbot.db, or postgresql://user@host:5432/db for "
        "several replicas (needs quizbot[postgres]); unset: the SQLite file of db_path.",
    )
    outbox_lease_seconds: float = Field(
        default=60.0,
        gt=0,
        description="PostgreSQL: how long a replica holds an outbox action it claimed before "
        "another replica may take it over (longer than a send with its retries).",
    )
    sqlite_synchronous: str = Field(
        default="normal",
        pattern="^(normal|full)$",
        description="normal, or full: no committed answer lost even on power loss (slower).",
    )
    packs_dir: Annotated[list[Path], NoDecode] = Field(
        default_factory=list,
        description="Extra directories of question packs (*.yaml), comma-separated.",
    )
    charts_dir: Path | None = Field(
        default=None,
        description=(
            "Where the console writes chart PNGs (default: a new temporary directory,"
            " removed when quizbot stops)."
        ),
    )
    timezone: str = Field(default="UTC", description="Default IANA timezone for new channels.")
    default_schedule: str = Field(
        default="weekdays 09:00", description="Schedule of a channel when it is first set up."
    )
    grace_hours: float = Field(
        default=6.0, ge=0, description="How late a missed slot may still be posted after downtime."
    )
    reveal_emoji: str = Field(default="💡", description="Default reveal emoji for new channels.")
    followup_policy: FollowUpPolicy = Field(
        default=FollowUpPolicy.AFTER_FIRST_ANSWER,
        description="When follow-ups are posted: after_first_answer, immediately, with_reveal.",
    )
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
    log_format: str = Field(
        default="text", pattern="^(text|json)$", description="text, or json (one object a line)."
    )
    http_port: int | None = Field(
        default=None,
        ge=1,
        le=65535,
        description="Serve /healthz and /metrics on this port (off when unset).",
    )
    health_host: str = Field(
        default="127.0.0.1",
        min_length=1,
        description="The address /healthz and /metrics listen on: 127.0.0.1 (this host "
        "only), or e.g. 0.0.0.0 for every interface (in a container).",
    )
    shutdown_timeout: float = Field(
        default=10.0, gt=0, description="Seconds to finish in-flight sends on SIGTERM."
    )

    slack_bot_token: SecretStr | None = Field(default=None, description="Slack bot token, xoxb-…")
    slack_app_token: SecretStr | None = Field(
        default=None, description="Slack app-level token for Socket Mode, xapp-…"
    )
    slack_signing_secret: SecretStr | None = Field(
        default=None, description="Slack signing secret (HTTP mode)."
    )
    slack_api_url: str | None = Field(
        default=None, description="Slack Web API base URL, ending in /api/ (GovSlack, tests)."
    )
    slack_mode: str = Field(
        default="socket",
        pattern="^(socket|http)$",
        description="socket (Socket Mode, no public URL) or http (events at /slack/events).",
    )
    slack_http_port: int = Field(default=3000, description="Port of the Slack HTTP mode server.")
    slack_client_id: str | None = Field(
        default=None,
        description="Slack app's client id: set it (with the client secret, the token "
        "encryption key and HTTP mode) to install in many workspaces through /slack/install.",
    )
    slack_client_secret: SecretStr | None = Field(
        default=None, description="Slack app's client secret (installs in many workspaces)."
    )
    slack_redirect_uri: str | None = Field(
        default=None,
        description="https://<your host>/slack/oauth_redirect, as listed in the app's OAuth "
        "settings (unset: the app's only redirect URL).",
    )
    slack_replicas: int = Field(
        default=1,
        ge=1,
        description="How many `quizbot run` processes post to the same Slack workspaces "
        "(replicas on one PostgreSQL database). A workspace's posting limit is the "
        "workspace's, not a process's: each replica starts its posts at its share of it.",
    )
    slack_token_encryption_key: SecretStr | None = Field(
        default=None,
        description="Fernet key sealing the bot tokens of installed workspaces in the database.",
    )
    slack_admins: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="Slack user ids treated as quiz admins, comma-separated."
    )

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

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings, dotenv_settings]
        if cls.toml_path is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=cls.toml_path))
        sources.append(file_secret_settings)
        return tuple(sources)

    @field_validator("packs_dir", "slack_admins", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            if value.lstrip().startswith("["):
                return json.loads(value)  # a JSON list works too
            return [item.strip() for item in value.split(",") if item.strip()]
        return value

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            return parse_timezone(value).key
        except ScheduleError:
            raise ValueError(
                f"unknown timezone {quoted(value)}: use an IANA name such as Europe/Berlin"
            ) from None

    @field_validator("default_schedule")
    @classmethod
    def _known_schedule(cls, value: str) -> str:
        try:
            return parse_question_schedule(value).text
        except ScheduleError as problem:
            raise ValueError(str(problem)) from None

    @field_validator("log_level")
    @classmethod
    def _known_log_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"unknown log level {quoted(value)}: use {', '.join(LOG_LEVELS)}")
        return level

    @field_validator("discord_token", "slack_bot_token", "slack_app_token")
    @classmethod
    def _one_line_token(cls, value: SecretStr | None) -> SecretStr | None:
        # Sent in an HTTP header, where aiohttp refuses a line break as header injection:
        # a traceback at the first request, which doctor took for a network failure.
        if value is not None and (problem := token_problem(value.get_secret_value())):
            raise ValueError(problem)
        return value

    @field_validator("slack_redirect_uri")
    @classmethod
    def _redirect_uri(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("https://", "http://")):
            raise ValueError(
                f"{quoted(value)} is not a URL: use https://<your host>/slack/oauth_redirect"
            )
        return value

    @property
    def slack_installs(self) -> bool:
        """Slack serves every workspace that installs the app (OAuth), not one bot token."""
        return self.slack_client_id is not None

    def platforms(self) -> list[str]:
        """The platforms to run, checked against the credentials they need."""
        if self.platform.strip() == "auto":
            chosen = [
                name
                for name, has_token in (
                    ("discord", self.discord_token is not None),
                    ("slack", self.slack_bot_token is not None or self.slack_installs),
                )
                if has_token
            ] or ["console"]
        else:
            chosen = [p.strip() for p in self.platform.split(",") if p.strip()]
        for name in chosen:
            if name not in PLATFORMS:
                raise SettingsError(
                    f"unknown platform {name!r} in --platform or QUIZBOT_PLATFORM;"
                    f" use {', '.join(PLATFORMS)}"
                )
        return chosen

    def check_credentials(self) -> None:
        """Raise a SettingsError naming the variables the chosen platforms still need."""
        for name in self.platforms():
            if name == "slack":
                self.check_slack_installs()
            self.require(*self.required_for(name))

    def required_for(self, platform: str) -> tuple[str, ...]:
        """The settings a platform needs, as `quizbot run` will use it."""
        if platform == "slack" and self.slack_installs:
            return SLACK_INSTALL_CREDENTIALS
        return required_credentials(platform, slack_http=self.slack_mode == "http")

    def check_slack_installs(self) -> None:
        """Installs in many workspaces need HTTP mode (Slack redirects the browser to
        /slack/oauth_redirect) and exclude the one-workspace bot token."""
        if not self.slack_installs:
            return
        if self.slack_mode != "http":
            raise SettingsError(INSTALLS_NEED_HTTP)
        if self.slack_bot_token is not None:
            raise SettingsError(
                "set either QUIZBOT_SLACK_BOT_TOKEN (one workspace) or QUIZBOT_SLACK_CLIENT_ID "
                "(every workspace that installs the app through /slack/install), not both"
            )

    def require(self, *names: str) -> None:
        """Raise a SettingsError naming each missing variable."""
        missing = [f"QUIZBOT_{n.upper()}" for n in names if getattr(self, n) in (None, "")]
        if missing:
            raise SettingsError("missing setting: set " + " and ".join(missing))


INSTALLS_NEED_HTTP = (
    "QUIZBOT_SLACK_CLIENT_ID is set (installs in many workspaces): that needs HTTP mode for "
    "/slack/install and /slack/oauth_redirect; set QUIZBOT_SLACK_MODE=http (or run with --http)"
)
# Slack for many workspaces: the app's OAuth credentials, the key sealing each workspace's
# bot token in the database, and the signing secret of HTTP mode.
SLACK_INSTALL_CREDENTIALS = (
    "slack_client_id",
    "slack_client_secret",
    "slack_token_encryption_key",
    "slack_signing_secret",
)


def required_credentials(platform: str, *, slack_http: bool) -> tuple[str, ...]:
    """The credentials a platform needs: Slack a bot token plus the app token (Socket
    Mode) or the signing secret (HTTP); Discord a bot token; the console none."""
    if platform == "slack":
        return ("slack_bot_token", "slack_signing_secret" if slack_http else "slack_app_token")
    if platform == "discord":
        return ("discord_token",)
    return ()


def token_problem(token: str) -> str | None:
    """Why a platform token cannot be right (never quoting it), or None. Tokens are one
    line of printable characters without spaces; a pasted or file-read token may carry a
    line break."""
    for char in token:
        if char in "\r\n":
            found = "a line break"
        elif char.isspace():
            found = "a space"
        elif not char.isprintable():
            found = "a control character"
        else:
            continue
        return (
            f"malformed: the token holds {found}; a token is one line without spaces:"
            " copy it again from the platform's settings"
        )
    return None


def load_settings(config: Path | None = None, **overrides: Any) -> Settings:
    """Settings from the environment, ``.env`` and ``config`` (TOML), then ``overrides``."""
    if config is not None and not config.is_file():
        raise SettingsError(f"config file not found: {config}")
    if config is not None:
        check_toml_keys(config)
    Settings.toml_path = config
    try:
        return Settings(**{k: v for k, v in overrides.items() if v is not None})
    finally:
        Settings.toml_path = None


def check_toml_keys(config: Path) -> None:
    """Refuse a key of the TOML file that is no setting (a typo would else do nothing),
    naming it with its table and the setting it most likely meant."""
    try:
        with config.open("rb") as file:
            data = tomllib.load(file)
    except tomllib.TOMLDecodeError as problem:
        raise SettingsError(f"{config} is not valid TOML: {problem}") from problem
    names = list(Settings.model_fields)
    unknown = [
        _unknown_key(key, names) for key in _keys(data) if key.lower() not in Settings.model_fields
    ]
    if unknown:
        raise SettingsError(f"{config}: {'; '.join(unknown)}")


def _keys(table: dict[str, Any], prefix: str = "") -> list[str]:
    """The keys of ``table``, a key of a nested table as ``table.key`` (settings have none)."""
    keys: list[str] = []
    for key, value in table.items():
        if isinstance(value, dict):
            keys += _keys(value, f"{prefix}{key}.")
        else:
            keys.append(f"{prefix}{key}")
    return keys


def _unknown_key(key: str, names: list[str]) -> str:
    # "slack.mode" is most likely the setting slack_mode: settings have no tables
    close = difflib.get_close_matches(key.lower().replace(".", "_"), names, n=1)
    hint = f" (did you mean {quoted(close[0])}?)" if close else ""
    return f"unknown key {quoted(key)}{hint}"


def invalid_settings(problem: ValidationError) -> list[str]:
    """One line per refused setting, named as its environment variable."""
    return [
        f"QUIZBOT_{'_'.join(str(p) for p in error['loc']).upper()}: "
        + error["msg"].removeprefix("Value error, ")  # pydantic's lead to our own message
        for error in problem.errors()
    ]
