"""What ``quizbot doctor`` checks of Slack: the bot and app tokens (or the app's credentials
for installs in many workspaces) with Slack itself, and that the encryption key opens the
bot tokens installs stored."""

from __future__ import annotations

from typing import Any

import aiohttp

from adapters.checks import MAX_PROBLEMS_SHOWN, NETWORK_TIMEOUT, Check
from adapters.plugin import DoctorContext
from adapters.printable import printable
from adapters.slack.settings import SlackSettings
from bot.kernel.errors import QuizError
from bot.settings import SettingsError

SLACK_API_URL = "https://slack.com/api/"
# Slack checks the app's credentials before the code: a code that cannot exist tells
# whether the client id and secret are right without installing anything.
PROBE_CODE = "quizbot-doctor-probe"
INSTALLATIONS = "slack_installations"


async def slack_checks(settings: SlackSettings, context: DoctorContext) -> list[Check]:
    """The credentials; with installs, also the stored tokens (once the settings passed)."""
    checks = [await check_slack(settings)]
    if settings.slack_installs and context.config_ok and context.database is not None:
        checks.append(await check_slack_tokens(settings, context))
    return checks


async def check_slack(settings: SlackSettings) -> Check:
    """``auth.test`` with the bot token; in Socket Mode ``apps.connections.open`` with the
    app token (it only issues a connection URL, it does not connect)."""
    base_url = settings.slack_api_url or SLACK_API_URL
    if settings.slack_installs:
        return await check_slack_app(settings, base_url)
    if settings.slack_bot_token is None:
        return Check("slack", False, "no bot token", "set QUIZBOT_SLACK_BOT_TOKEN")
    try:
        identity = await _slack_call(
            settings.slack_bot_token.get_secret_value(), base_url, "auth.test"
        )
        if settings.slack_mode == "socket" and settings.slack_app_token is not None:
            await _slack_call(
                settings.slack_app_token.get_secret_value(), base_url, "apps.connections.open"
            )
    except SlackCallFailed as failed:
        return Check("slack", False, failed.detail, failed.fix)
    team, user = identity.get("team", "?"), identity.get("user", "?")
    return Check("slack", True, f"signed in as {user} in workspace {team}")


async def check_slack_app(settings: SlackSettings, base_url: str) -> Check:
    """Installs in many workspaces: ``oauth.v2.access`` with the client id and secret and
    a code that cannot exist; Slack answers ``invalid_code`` when the credentials are right."""
    from slack_sdk.errors import SlackApiError
    from slack_sdk.web.async_client import AsyncWebClient

    if settings.slack_client_id is None or settings.slack_client_secret is None:
        return Check(
            "slack",
            False,
            "no client id or secret",
            "set QUIZBOT_SLACK_CLIENT_ID and QUIZBOT_SLACK_CLIENT_SECRET",
        )
    client = AsyncWebClient(base_url=base_url, timeout=int(NETWORK_TIMEOUT))
    try:
        await client.oauth_v2_access(
            client_id=settings.slack_client_id,
            client_secret=settings.slack_client_secret.get_secret_value(),
            code=PROBE_CODE,
        )
    except SlackApiError as error:
        code = str(error.response.get("error", "unknown_error"))
        if code != "invalid_code":
            return Check(
                "slack",
                False,
                f"oauth.v2.access answered {code}",
                "copy Client ID and Client Secret from the app's Basic Information › App "
                "Credentials into QUIZBOT_SLACK_CLIENT_ID and QUIZBOT_SLACK_CLIENT_SECRET",
            )
    except (aiohttp.ClientError, TimeoutError, OSError) as error:
        return Check(
            "slack",
            False,
            f"cannot reach the Slack API at {base_url}: {type(error).__name__}: {error}",
            "check the network and QUIZBOT_SLACK_API_URL (unset it for slack.com)",
        )
    redirect = settings.slack_redirect_uri or "the app's redirect URL"
    return Check(
        "slack",
        True,
        f"app {settings.slack_client_id} accepted by Slack; workspaces install at /slack/install, "
        f"Slack returns them to {redirect}",
    )


class SlackCallFailed(QuizError):
    """A Slack Web API call of the doctor failed; the message says which and why."""

    def __init__(self, detail: str, fix: str) -> None:
        super().__init__(detail)
        self.detail, self.fix = detail, fix


async def _slack_call(token: str, base_url: str, method: str) -> Any:
    from slack_sdk.errors import SlackApiError
    from slack_sdk.web.async_client import AsyncWebClient

    client = AsyncWebClient(token=token, base_url=base_url, timeout=int(NETWORK_TIMEOUT))
    try:
        return await client.api_call(method)
    except SlackApiError as error:
        code = str(error.response.get("error", "unknown_error"))
        raise SlackCallFailed(f"{method} answered {code}", _slack_fix(method, code)) from None
    except (aiohttp.ClientError, TimeoutError, OSError) as error:
        raise SlackCallFailed(
            f"cannot reach the Slack API at {base_url}: {type(error).__name__}: {error}",
            "check the network and QUIZBOT_SLACK_API_URL (unset it for slack.com)",
        ) from None


def _slack_fix(method: str, code: str) -> str:
    if method == "apps.connections.open":
        return (
            "create an app-level token with the connections:write scope (Basic Information › "
            "App-Level Tokens) and set it as QUIZBOT_SLACK_APP_TOKEN (xapp-…); "
            "Socket Mode must be on"
        )
    if code in ("invalid_auth", "not_authed", "token_revoked", "account_inactive"):
        return (
            "copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions into "
            "QUIZBOT_SLACK_BOT_TOKEN; reinstall the app if it was revoked"
        )
    return "see https://api.slack.com/methods/auth.test for this error"


# the sealed tokens of installed Slack workspaces


async def check_slack_tokens(settings: SlackSettings, context: DoctorContext) -> Check:
    """Every bot token stored by an install opens with the configured encryption key: with
    another key the bot could not act in those workspaces."""
    from adapters.slack.installations import TokenSeal

    assert settings.slack_token_encryption_key is not None and context.database is not None
    seal = TokenSeal(settings.slack_token_encryption_key.get_secret_value())
    select = f"SELECT workspace, sealed_token FROM {INSTALLATIONS} ORDER BY workspace"
    try:
        rows = await context.read_table(context.database, INSTALLATIONS, select)
    except QuizError as problem:
        return Check("slack tokens", False, f"cannot read the installations: {problem}")
    stored = [(str(row[0]), str(row[1])) for row in rows]
    closed = [workspace for workspace, sealed in stored if not _opens(seal, sealed)]
    if closed:
        shown = ", ".join(printable(w) for w in closed[:MAX_PROBLEMS_SHOWN])
        more = len(closed) - MAX_PROBLEMS_SHOWN
        return Check(
            "slack tokens",
            False,
            "QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY does not open the stored bot token of "
            f"{len(closed)} of {len(stored)} installed workspace(s): {shown}"
            + (f" and {more} more" if more > 0 else ""),
            "set the key the tokens were sealed with; with a new key, install the app again "
            "in those workspaces",
        )
    opened = f"the key opens the bot tokens of {len(stored)} installed workspace(s)"
    return Check("slack tokens", True, opened)


def _opens(seal: Any, sealed: str) -> bool:
    try:
        seal.open(sealed)
    except SettingsError:
        return False
    return True
