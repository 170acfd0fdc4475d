"""The Slack platform built from its settings (``QUIZBOT_SLACK_*``): its Web API clients and,
for installs in many workspaces, the OAuth flow and the installations."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from slack_sdk.http_retry.builtin_async_handlers import AsyncConnectionErrorRetryHandler

from adapters.plugin import require
from adapters.slack.connector import DEFAULT_HTTP_PORT, SlackPlatform
from adapters.slack.pacing import DEFAULT_INTERVAL, ChannelPacer
from adapters.slack.settings import INSTALLS_NEED_HTTP, SLACK_INSTALL_CREDENTIALS, SlackSettings
from adapters.slack.web_client import SharedSessionWebClient
from adapters.slack.workspace_pacing import (
    DEFAULT_POSTS_PER_SECOND,
    PacedRateLimitRetryHandler,
    WorkspacePacer,
    replica_share,
)
from adapters.unfinished_sends import SendProgress
from bot.kernel.clock import Clock, SystemClock
from bot.kernel.installations import InstallationStore
from bot.settings import SettingsError

if TYPE_CHECKING:
    from adapters.slack.installs import SlackInstalls


def build_web_client(
    settings: SlackSettings,
    *,
    rate_limit_retries: int = 1,
    workspace: WorkspacePacer | None = None,
    token: str | None = None,
) -> SharedSessionWebClient:
    """A Web API client, its calls sharing one HTTP session (closed by
    :meth:`SlackPlatform.stop`); a 429 to a post holds the ``workspace`` pacer's posts.
    The token: ``token`` (an installed workspace's), else the bot token of the settings."""
    if token is None and not settings.slack_installs:
        require(settings, "slack_bot_token")
        assert settings.slack_bot_token is not None
        token = settings.slack_bot_token.get_secret_value()
    options: dict[str, Any] = {}
    if settings.slack_api_url:
        options["base_url"] = settings.slack_api_url
    return SharedSessionWebClient(
        token=token,
        retry_handlers=[
            AsyncConnectionErrorRetryHandler(),
            PacedRateLimitRetryHandler(
                workspace or WorkspacePacer(None), max_retry_count=rate_limit_retries
            ),
        ],
        **options,
    )


def create_slack_platform(
    settings: SlackSettings,
    *,
    http: bool = False,
    host: str = "0.0.0.0",
    port: int | None = None,
    post_interval: float = DEFAULT_INTERVAL,
    workspace_rate: float | None = DEFAULT_POSTS_PER_SECOND,
    progress: SendProgress | None = None,
    installations: InstallationStore | None = None,
    clock: Clock | None = None,
) -> SlackPlatform:
    """The Slack platform from settings: Socket Mode (bot + app token) by default, or HTTP
    (bot token + signing secret) serving ``/slack/events`` on ``host:port``. With
    ``QUIZBOT_SLACK_CLIENT_ID`` it serves every workspace that installs the app
    (``/slack/install``), their installations kept in ``installations``. ``workspace_rate``
    is a workspace's posts per second for the whole app; this process paces at its share
    of it (``QUIZBOT_SLACK_REPLICAS``). ``clock`` stamps installations (default: the wall
    clock)."""
    workspace_rate = replica_share(workspace_rate, settings.slack_replicas)
    installs: SlackInstalls | None = None
    if settings.slack_installs:
        from adapters.slack.installs import create_installs

        if not http:
            raise SettingsError(INSTALLS_NEED_HTTP)
        require(settings, *SLACK_INSTALL_CREDENTIALS)
        if installations is None:
            raise SettingsError("installs in many Slack workspaces need the quiz's database")
        installs = create_installs(
            settings,
            installations,
            lambda token, pacer: build_web_client(settings, workspace=pacer, token=token),
            workspace_rate=workspace_rate,
            now=(clock or SystemClock()).now,
        )
    else:
        require(settings, "slack_bot_token", "slack_signing_secret" if http else "slack_app_token")
    secret = settings.slack_signing_secret
    app_token = settings.slack_app_token
    workspace = WorkspacePacer(workspace_rate)
    return SlackPlatform(
        build_web_client(settings, workspace=workspace),
        signing_secret=secret.get_secret_value() if secret else "",
        app_token=app_token.get_secret_value() if app_token else "",
        http=http,
        host=host,
        port=DEFAULT_HTTP_PORT if port is None else port,
        admins=settings.slack_admins,
        pacer=ChannelPacer(post_interval),
        workspace=workspace,
        progress=progress,
        installs=installs,
    )
