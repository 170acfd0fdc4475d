"""Slack for many workspaces: installs through bolt's OAuth flow, and removals.

An install (``/slack/install`` → Slack's consent page → ``/slack/oauth_redirect``)
stores the workspace's bot token sealed (``adapters.slack.installations``) and enables
again the channels an earlier removal had disabled. ``app_uninstalled``, or
``tokens_revoked`` for the bot, forgets the installation and disables the workspace's
channels through the core's :class:`~bot.kernel.runtime.WorkspaceInstalls`. Both are idempotent:
Slack may deliver an event twice, to any replica.

A failed install gets a page that says what happened and what to do, never a token.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Callable
from datetime import datetime, timedelta

from slack_bolt.oauth.async_callback_options import (
    AsyncCallbackOptions,
    AsyncFailureArgs,
    AsyncSuccessArgs,
)
from slack_bolt.oauth.async_oauth_flow import AsyncOAuthFlow
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_bolt.response import BoltResponse
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.inbound import Removal
from adapters.slack.installations import (
    DatabaseInstallationStore,
    TokenSeal,
    oauth_settings,
    wall_clock,
)
from adapters.slack.settings import SlackSettings
from adapters.slack.workspaces import ClientFactory, InstalledAuthorize, InstalledWorkspaces
from bot.kernel.installations import InstallationStore
from bot.kernel.runtime import WorkspaceInstalls

log = logging.getLogger(__name__)
# The OAuth flow's logger and its Web API client's: their records pass HideOAuthCode.
oauth_log = logging.getLogger(f"{__name__}.oauth")
_OAUTH_CODE = re.compile(r"(\bcode(?:': \[?'|: |=))[^\s'&,}]+")

PLATFORM = "slack"
# Slack's event_time has whole seconds: the removal happened somewhere in that second, so
# an installation made earlier in it is still the one removed.
EVENT_TIME_STEP = timedelta(seconds=1)
START_AGAIN = 'Start again from <a href="{install}">{install}</a>.'
# What the installer is told for each reason bolt's flow gives (Slack's own error codes,
# such as access_denied when the installer cancels, arrive the same way).
FAILURES = {
    "access_denied": "The install was cancelled on Slack's page; nothing was installed.",
    "invalid_browser": "This install was not started in this browser, or its cookie was "
    "lost (the install page must be served over https).",
    "invalid_state": "This install link has expired (it lasts 10 minutes) or was already used.",
    "missing_code": "Slack sent no authorization code with this redirect.",
    "invalid_code": "Slack did not accept the authorization code: it expired or was already "
    "used, or the app's client id and secret do not match.",
    "storage_error": "The installation could not be saved.",
}


class HideOAuthCode(logging.Filter):
    """Keeps the redirect's one-time code (with the client secret it buys a bot token) out
    of the flow's records: bolt names it when Slack refuses the exchange, and the Web API
    client lists a request's fields at DEBUG."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = _OAUTH_CODE.sub(r"\1[redacted]", message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True


oauth_log.addFilter(HideOAuthCode())


class SlackInstalls:
    """The install side of a Slack app serving many workspaces: bolt's OAuth settings,
    its authorize step, each workspace's client, and what an install or removal does."""

    def __init__(
        self,
        store: DatabaseInstallationStore,
        workspaces: InstalledWorkspaces,
        settings: AsyncOAuthSettings,
    ) -> None:
        self.store = store
        self.workspaces = workspaces
        self.authorize = InstalledAuthorize(workspaces)
        self.oauth_settings = settings
        settings.callback_options = AsyncCallbackOptions(
            success=self._installed, failure=self._failed
        )
        self._core: WorkspaceInstalls | None = None

    def flow(self, client: AsyncWebClient) -> AsyncOAuthFlow:
        """Bolt's OAuth flow, logging through ``oauth_log`` with a client of its own that
        does too (``client`` only gives the API's address)."""
        own = AsyncWebClient(base_url=client.base_url, timeout=client.timeout, logger=oauth_log)
        return AsyncOAuthFlow(client=own, logger=oauth_log, settings=self.oauth_settings)

    def watch(self, core: WorkspaceInstalls) -> None:
        self._core = core

    async def removed(self, removal: Removal) -> None:
        """The app was uninstalled from a workspace or its bot token revoked. Only an
        installation made before the event goes: Slack delivers an event again when the
        first delivery was not answered in time, and a late one must spare a reinstall."""
        team = removal.team
        before = None if removal.sent_at is None else removal.sent_at + EVENT_TIME_STEP
        kept = await self.store.delete_bot_installed_before(team, before)
        if kept is not None:
            log.info(
                "ignored %s (event %s, sent %s) for Slack workspace %s: the app was "
                "installed again there at %s",
                removal.kind,
                removal.event_id,
                removal.sent_at.isoformat() if removal.sent_at else "at an unknown time",
                team,
                kept.isoformat(),
            )
            return
        self.workspaces.forget(team)
        stopped = 0
        if self._core is not None:
            stopped = await self._core.disable_workspace(PLATFORM, team)
        log.info("Slack app removed from workspace %s; %d channel(s) disabled", team, stopped)

    async def _installed(self, args: AsyncSuccessArgs) -> BoltResponse:
        team = args.installation.team_id
        if team:
            self.workspaces.forget(team)  # a reinstall may bring a new token
            if self._core is not None:
                await self._core.enable_workspace(PLATFORM, team)
        return await args.default.success(args)

    async def _failed(self, args: AsyncFailureArgs) -> BoltResponse:
        install = args.settings.install_path
        reason = FAILURES.get(args.reason, f"Slack answered {args.reason!r}.")
        if args.reason == "storage_error" and args.error is not None:
            reason = f"{reason} {args.error}"
        log.warning("a Slack install failed: %s (%s)", args.reason, type(args.error).__name__)
        return BoltResponse(
            status=args.suggested_status_code,
            headers={
                "Content-Type": "text/html; charset=utf-8",
                "Set-Cookie": args.settings.state_utils.build_set_cookie_for_deletion(),
            },
            body=failure_page(reason, install),
        )


def failure_page(reason: str, install_path: str) -> str:
    again = START_AGAIN.format(install=html.escape(install_path))
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>quizbot: install failed"
        "</title></head><body><h1>quizbot was not installed</h1>"
        f"<p>{html.escape(reason)}</p><p>{again}</p></body></html>"
    )


def create_installs(
    settings: SlackSettings,
    installations: InstallationStore,
    make_client: ClientFactory,
    *,
    workspace_rate: float | None,
    now: Callable[[], datetime] = wall_clock,
) -> SlackInstalls:
    """Installs from ``QUIZBOT_SLACK_CLIENT_ID``, ``…_CLIENT_SECRET``, ``…_REDIRECT_URI``
    and ``…_TOKEN_ENCRYPTION_KEY`` (a wrong key raises ``SettingsError`` saying how to
    make one); ``now`` stamps each installation."""
    assert settings.slack_client_id is not None
    assert settings.slack_client_secret is not None
    assert settings.slack_token_encryption_key is not None
    seal = TokenSeal(settings.slack_token_encryption_key.get_secret_value())
    store = DatabaseInstallationStore(installations, seal, now=now)
    workspaces = InstalledWorkspaces(
        store, make_client, workspace_rate=workspace_rate, admins=settings.slack_admins
    )
    oauth = oauth_settings(
        client_id=settings.slack_client_id,
        client_secret=settings.slack_client_secret.get_secret_value(),
        redirect_uri=settings.slack_redirect_uri,
        store=installations,
        seal=seal,
        installation_store=store,
        now=now,
    )
    return SlackInstalls(store, workspaces, oauth)
