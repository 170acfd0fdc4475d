"""Slack's own settings (``QUIZBOT_SLACK_*``), and what they need of each other."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import NoDecode

from adapters.plugin import PlatformSettings, SettingsProblem, one_line_token
from bot.kernel.quoting import quoted
from bot.settings import SettingsError, comma_list

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


class SlackSettings(PlatformSettings):
    """Slack's settings: one workspace's bot token, or the app's credentials to serve every
    workspace that installs it."""

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

    @field_validator("slack_admins", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        return comma_list(value)

    @field_validator("slack_bot_token", "slack_app_token")
    @classmethod
    def _one_line_token(cls, value: SecretStr | None) -> SecretStr | None:
        return one_line_token(value)

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


def slack_configured(settings: SlackSettings) -> bool:
    """'auto' runs Slack: a bot token, or the app's client id (installs), is set."""
    return settings.slack_bot_token is not None or settings.slack_installs


def slack_required(settings: SlackSettings) -> tuple[str, ...]:
    """The settings Slack needs as ``quizbot run`` will use it: a bot token plus the app
    token (Socket Mode) or the signing secret (HTTP); for installs in many workspaces, the
    app's credentials in HTTP mode instead of the bot token."""
    if settings.slack_installs:
        check_slack_installs(settings)
        return SLACK_INSTALL_CREDENTIALS
    http = settings.slack_mode == "http"
    return ("slack_bot_token", "slack_signing_secret" if http else "slack_app_token")


def check_slack_installs(settings: SlackSettings) -> None:
    """Installs in many workspaces need HTTP mode (Slack redirects the browser to
    /slack/oauth_redirect) and exclude the one-workspace bot token."""
    if not settings.slack_installs:
        return
    if settings.slack_mode != "http":
        raise SettingsProblem(INSTALLS_NEED_HTTP, "correct the Slack settings")
    if settings.slack_bot_token is not None:
        raise SettingsProblem(
            "set either QUIZBOT_SLACK_BOT_TOKEN (one workspace) or QUIZBOT_SLACK_CLIENT_ID "
            "(every workspace that installs the app through /slack/install), not both",
            "correct the Slack settings",
        )


def check_slack_settings(settings: SlackSettings, running: bool) -> str:
    """With installs in many workspaces, the token encryption key must be a Fernet key."""
    if running and settings.slack_installs:
        from adapters.slack.installations import check_encryption_key

        try:
            check_encryption_key(settings)
        except SettingsError as problem:
            raise SettingsProblem(
                str(problem), "set QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY to it"
            ) from None
    return ""
