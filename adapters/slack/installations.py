"""Bolt's installation and OAuth state stores, kept in the quiz's database.

Bolt's OAuth flow (``/slack/install``, ``/slack/oauth_redirect``) hands each finished
install to :class:`DatabaseInstallationStore`, which seals the bot token with Fernet
(key: ``QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY``) before the store sees it; bolt's authorize step
finds the workspace's bot again for every request. Only bot installs are kept: the quiz
acts as its bot, never as the installing user. Org-wide (Enterprise Grid) installs are
refused: the quiz keys everything by workspace.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from cryptography.fernet import Fernet, InvalidToken
from slack_bolt.error import BoltError
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_sdk.oauth.installation_store.async_installation_store import AsyncInstallationStore
from slack_sdk.oauth.installation_store.models.bot import Bot
from slack_sdk.oauth.installation_store.models.installation import Installation
from slack_sdk.oauth.state_store.async_state_store import AsyncOAuthStateStore
from slack_sdk.oauth.state_utils import OAuthStateUtils

from adapters.plugin import require
from adapters.slack.settings import SlackSettings
from bot.kernel.installations import InstallationRecord, InstallationStore
from bot.settings import SettingsError

log = logging.getLogger(__name__)

# How long an install's state is good, in seconds: bolt's default, also the lifetime of
# the state cookie bolt sets with it (``OAuthStateUtils``).
STATE_EXPIRATION_SECONDS = OAuthStateUtils.default_expiration_seconds
# /slack/install needs no authentication and stores a state each time: at most this many
# installs in progress are kept (the newest), so a flood of requests cannot fill the
# database. Real installs in progress at once are a handful.
MAX_PENDING_STATES = 500
# The bot scopes an install asks for: the manifest's (deploy/slack-manifest.yml; a test
# keeps the two the same).
BOT_SCOPES = (
    "commands",
    "chat:write",
    "reactions:write",
    "reactions:read",
    "channels:history",
    "groups:history",
    "users:read",
    "emoji:read",
    "files:write",
    "im:write",
    "im:history",
    "mpim:write",  # the group DM of a mock-interview pair (/quiz pair)
)
KEY_HINT = (
    "QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY must be a Fernet key (32 url-safe base64-encoded bytes); "
    "make one with: python -c 'from cryptography.fernet import Fernet; "
    "print(Fernet.generate_key().decode())'"
)


def wall_clock() -> datetime:
    return datetime.now(UTC)


class TokenSeal:
    """Encrypts bot tokens for the database and decrypts them for use (Fernet)."""

    def __init__(self, key: str) -> None:
        try:
            self._fernet = Fernet(key.strip().encode())
        except ValueError:
            raise SettingsError(KEY_HINT) from None

    def seal(self, token: str) -> str:
        return self._fernet.encrypt(token.encode()).decode()

    def open(self, sealed: str) -> str:
        try:
            return self._fernet.decrypt(sealed.encode()).decode()
        except InvalidToken:
            raise SettingsError(
                "a stored Slack token does not open with QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY: "
                "was the key changed? Reinstall the app in that workspace"
            ) from None


def check_encryption_key(settings: SlackSettings) -> None:
    """Raise a ``SettingsError`` (saying how to make one) unless the token encryption key
    is set and a Fernet key."""
    require(settings, "slack_token_encryption_key")
    assert settings.slack_token_encryption_key is not None
    TokenSeal(settings.slack_token_encryption_key.get_secret_value())


class DatabaseInstallationStore(AsyncInstallationStore):
    """Bolt's ``AsyncInstallationStore`` over the quiz's ``InstallationStore``."""

    def __init__(
        self,
        store: InstallationStore,
        seal: TokenSeal,
        *,
        now: Callable[[], datetime] = wall_clock,
    ) -> None:
        self._store = store
        self._seal = seal
        self._now = now

    @property
    def logger(self) -> logging.Logger:
        return log

    async def async_save(self, installation: Installation) -> None:
        await self.async_save_bot(installation.to_bot())

    async def async_save_bot(self, bot: Bot) -> None:
        if bot.is_enterprise_install or not bot.team_id:
            raise BoltError("org-wide installs are not supported: install in each workspace")
        if not bot.bot_token:
            raise BoltError("the install gave no bot token: check the app's bot scopes")
        await self._store.save_installation(
            InstallationRecord(
                workspace=bot.team_id,
                enterprise=bot.enterprise_id,
                team_name=bot.team_name or "",
                app_id=bot.app_id,
                bot_id=bot.bot_id,
                bot_user_id=bot.bot_user_id,
                scopes=",".join(bot.bot_scopes or ()),
                sealed_token=self._seal.seal(bot.bot_token),
                installed_at=self._now(),
            )
        )
        log.info("Slack app installed in workspace %s (%s)", bot.team_id, bot.team_name)

    async def async_find_bot(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        is_enterprise_install: bool | None = False,
    ) -> Bot | None:
        if not team_id or is_enterprise_install:
            return None
        record = await self._store.find_installation(team_id)
        if record is None:
            return None
        return Bot(
            app_id=record.app_id,
            enterprise_id=record.enterprise,
            team_id=record.workspace,
            team_name=record.team_name,
            bot_token=self._seal.open(record.sealed_token),
            bot_id=record.bot_id or "",
            bot_user_id=record.bot_user_id,
            bot_scopes=record.scopes,
            installed_at=record.installed_at.timestamp(),
        )

    async def async_find_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
        is_enterprise_install: bool | None = False,
    ) -> Installation | None:
        bot = await self.async_find_bot(
            enterprise_id=enterprise_id,
            team_id=team_id,
            is_enterprise_install=is_enterprise_install,
        )
        if bot is None:
            return None
        return Installation(
            app_id=bot.app_id,
            enterprise_id=bot.enterprise_id,
            team_id=bot.team_id,
            team_name=bot.team_name,
            bot_token=bot.bot_token,
            bot_id=bot.bot_id,
            bot_user_id=bot.bot_user_id,
            bot_scopes=bot.bot_scopes,
            user_id="",
            installed_at=bot.installed_at,
        )

    async def async_delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        if team_id:
            await self._store.delete_installation(team_id)

    async def delete_bot_installed_before(
        self, team_id: str, moment: datetime | None
    ) -> datetime | None:
        """Forget the workspace's installation if it was made before ``moment`` (whenever,
        when None). Returns when the installation kept instead was made: one newer than
        ``moment``; None when none is left."""
        if await self._store.delete_installation(team_id, installed_before=moment):
            return None
        if moment is None:
            return None
        record = await self._store.find_installation(team_id)
        return record.installed_at if record is not None else None

    async def async_delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        if user_id is None:  # a user's own token is never kept: nothing to forget for one
            await self.async_delete_bot(enterprise_id=enterprise_id, team_id=team_id)

    async def bot_token(self, team_id: str) -> str | None:
        """The workspace's bot token, for outbound calls; None when it is not installed."""
        bot = await self.async_find_bot(enterprise_id=None, team_id=team_id)
        return bot.bot_token if bot is not None else None


class DatabaseStateStore(AsyncOAuthStateStore):
    """One-time ``state`` values of installs in progress, in the database (any replica
    may receive the redirect), each good for ``expiration_seconds`` as bolt's own state
    stores are. Each new state prunes the expired ones and keeps only the newest
    ``max_pending``: nothing has to clean up after installs that were never finished."""

    def __init__(
        self,
        store: InstallationStore,
        *,
        now: Callable[[], datetime] = wall_clock,
        expiration_seconds: int = STATE_EXPIRATION_SECONDS,
        max_pending: int = MAX_PENDING_STATES,
    ) -> None:
        self._store = store
        self._now = now
        self.expiration_seconds = expiration_seconds
        self.max_pending = max_pending

    @property
    def logger(self) -> logging.Logger:
        return log

    async def async_issue(self, *args: object, **kwargs: object) -> str:
        state = secrets.token_urlsafe(24)
        now = self._now()
        expires_at = now + timedelta(seconds=self.expiration_seconds)
        await self._store.issue_oauth_state(state, expires_at, now=now, keep=self.max_pending)
        return state

    async def async_consume(self, state: str) -> bool:
        if not state:
            return False
        return await self._store.consume_oauth_state(state, self._now())


def oauth_settings(
    *,
    client_id: str,
    client_secret: str,
    redirect_uri: str | None,
    store: InstallationStore,
    seal: TokenSeal,
    authorization_url: str | None = None,
    installation_store: DatabaseInstallationStore | None = None,
    now: Callable[[], datetime] = wall_clock,
) -> AsyncOAuthSettings:
    """Bolt's OAuth flow settings: bot installs, kept in the quiz's database (through
    ``installation_store`` when given, so its callers share it); ``now`` stamps the
    states' expiry, which is also the state cookie's."""
    state_store = DatabaseStateStore(store, now=now)
    return AsyncOAuthSettings(
        client_id=client_id,
        client_secret=client_secret,
        scopes=list(BOT_SCOPES),
        user_scopes=[],
        redirect_uri=redirect_uri,
        installation_store=installation_store or DatabaseInstallationStore(store, seal, now=now),
        installation_store_bot_only=True,
        state_store=state_store,
        state_expiration_seconds=state_store.expiration_seconds,
        authorization_url=authorization_url,
        logger=log,
    )
