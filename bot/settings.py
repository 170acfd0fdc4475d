"""Settings: ``QUIZBOT_*`` environment variables, a ``.env`` file and an optional TOML file.

Precedence, highest first: values passed in code (CLI flags), environment,
``.env``, the TOML file given with ``--config``, defaults. These are the core's; each
platform reads its own (``QUIZBOT_SLACK_*``, ...) the same way, from a class of its
folder built on :class:`QuizbotSettings`.
"""

from __future__ import annotations

import difflib
import json
import tomllib
from collections.abc import Collection
from pathlib import Path
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from bot.coach.budget import DEFAULT_DAILY_REQUESTS_PER_MEMBER, DEFAULT_DAILY_TOKENS
from bot.coach.endpoint import DEFAULT_DEADLINE
from bot.kernel.errors import QuizError
from bot.kernel.models import FollowUpPolicy
from bot.kernel.quoting import quoted
from bot.scheduling.question_schedule import parse_question_schedule
from bot.scheduling.schedule_spec import ScheduleError, parse_timezone

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(QuizError):
    """A setting is missing or wrong; the message names the variable to set."""


class QuizbotSettings(BaseSettings):
    """How every settings class of quizbot is read: flags, the environment, .env, the TOML
    file, defaults, in that order; secrets stay secret."""

    model_config = SettingsConfigDict(
        env_prefix="QUIZBOT_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        env_ignore_empty=True,  # a .env copied from the examples leaves unused settings empty
        hide_input_in_errors=True,
    )
    toml_path: ClassVar[Path | None] = None

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


class Settings(QuizbotSettings):
    """The core's operator settings (each platform's are in its own folder)."""

    platform: str = Field(
        default="auto",
        description="The platforms to run, e.g. 'console' or a comma list such as "
        "'discord,slack'; 'auto' picks the platforms whose tokens are set, else the console.",
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
    dashboard_url: str | None = Field(
        default=None,
        pattern=r"^https?://[^\s/?#]+(/[^\s?#]*)?$",
        description="The address /quiz dashboard links point at (e.g. https://quiz.example.com"
        " behind a proxy); unset: http://HEALTH_HOST:HTTP_PORT. The pages are served by the"
        " health server, so they need http_port.",
    )
    dashboard_secret: SecretStr | None = Field(
        default=None,
        min_length=16,
        description="The secret /quiz dashboard links are signed with (16 characters or more);"
        " unset: a random one generated once and kept in the database.",
    )
    dashboard_link_minutes: int = Field(
        default=60, ge=1, le=10080, description="How long a /quiz dashboard link works."
    )
    shutdown_timeout: float = Field(
        default=10.0, gt=0, description="Seconds to finish in-flight sends on SIGTERM."
    )
    coach_url: str | None = Field(
        default=None,
        description="The answer coach's OpenAI-compatible base URL, e.g. "
        "http://127.0.0.1:8080/v1 (unset: no coach, nothing is sent anywhere).",
    )
    coach_model: str | None = Field(
        default=None, description="The model the coach's endpoint serves (with coach_url)."
    )
    coach_api_key: SecretStr | None = Field(
        default=None,
        description="The coach endpoint's API key, if it wants one (never logged or shown).",
    )
    coach_daily_tokens: int = Field(
        default=DEFAULT_DAILY_TOKENS,
        ge=1,
        description="Tokens the coach may spend a day in each workspace (UTC days).",
    )
    coach_daily_requests_per_member: int = Field(
        default=DEFAULT_DAILY_REQUESTS_PER_MEMBER,
        ge=1,
        description="Answers the coach may read a day for each member (UTC days).",
    )
    coach_deadline_seconds: float = Field(
        default=DEFAULT_DEADLINE,
        gt=0,
        description="From an answer, how long the coach may keep trying before the member is "
        "told it is unavailable.",
    )

    @field_validator("packs_dir", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        return comma_list(value)

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


def comma_list(value: Any) -> Any:
    """A list setting given as text: comma-separated, or a JSON list."""
    if isinstance(value, str):
        if value.lstrip().startswith("["):
            return json.loads(value)  # a JSON list works too
        return [item.strip() for item in value.split(",") if item.strip()]
    return value


S = TypeVar("S", bound=QuizbotSettings)


def load_settings(
    config: Path | None = None, *, also_known: Collection[str] = (), **overrides: Any
) -> Settings:
    """The core's settings from the environment, ``.env`` and ``config`` (TOML), then
    ``overrides``; ``also_known``: the other settings the TOML file may hold (the
    platforms')."""
    return read_settings(Settings, config, also_known=also_known, **overrides)


def read_settings(
    kind: type[S], config: Path | None = None, *, also_known: Collection[str] = (), **overrides: Any
) -> S:
    """The settings of ``kind`` from the environment, ``.env`` and ``config`` (TOML), then
    ``overrides`` (a None among them is not given)."""
    if config is not None and not config.is_file():
        raise SettingsError(f"config file not found: {config}")
    if config is not None:
        check_toml_keys(config, [*kind.model_fields, *also_known])
    kind.toml_path = config
    try:
        return kind(**{k: v for k, v in overrides.items() if v is not None})
    finally:
        kind.toml_path = None


def check_toml_keys(config: Path, names: Collection[str]) -> None:
    """Refuse a key of the TOML file that is none of the settings ``names`` (a typo would
    else do nothing), naming it with its table and the setting it most likely meant."""
    try:
        with config.open("rb") as file:
            data = tomllib.load(file)
    except tomllib.TOMLDecodeError as problem:
        raise SettingsError(f"{config} is not valid TOML: {problem}") from problem
    unknown = [_unknown_key(key, list(names)) for key in _keys(data) if key.lower() not in names]
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
