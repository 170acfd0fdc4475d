"""Everything the Slack platform keeps per workspace, chosen by team id.

One bot token (``QUIZBOT_SLACK_BOT_TOKEN``) serves one workspace: :class:`OneWorkspace`
hands the same :class:`SlackWorkspace` to every team id, as before installs existed.
With installs in many workspaces (Slack's OAuth flow), :class:`InstalledWorkspaces`
builds each workspace's client from its installation (the bot token opened from the
database), with its own post pacer, emoji check, sent-message search and member cache,
and keeps it while the installation stays the same. An entry is checked against the
database again after ``ttl_seconds``, so an install or a removal handled by another
replica is seen here too. When Slack refuses a workspace's token (``invalid_auth``,
``account_inactive``, ``token_revoked``) its entry is dropped at once and that token is
not tried again: the next call reads the installation again and goes out only with a
new token (a reinstall, on any replica).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from slack_bolt.authorization import AuthorizeResult
from slack_bolt.authorization.async_authorize import AsyncAuthorize
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.oauth.installation_store.models.bot import Bot
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.admins import SlackMembers
from adapters.slack.errors import TokenRefused, slack_call
from adapters.slack.reveal_emoji import WorkspaceEmoji
from adapters.slack.sent_messages import SentMessages
from adapters.slack.web_client import SharedSessionWebClient
from adapters.slack.workspace_pacing import WorkspacePacer
from bot.kernel.errors import PlatformError, WorkspaceRemoved

log = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS = 60.0

# Builds a workspace's Web API client for a bot token; a 429 to one of its posts holds
# that workspace's pacer only.
ClientFactory = Callable[[str | None, WorkspacePacer], SharedSessionWebClient]


@dataclass(eq=False)
class SlackWorkspace:
    """One workspace as the bot acts in it: its bot's client, its post pacer, its custom
    emoji, the search for messages already sent, and who its admins are."""

    team: str  # "" for the one workspace of a bot token (whichever team it is)
    client: AsyncWebClient
    pacer: WorkspacePacer
    admins: Iterable[str] = ()
    bot_user_id: str = ""
    bot_id: str = ""
    emoji: WorkspaceEmoji = field(init=False)
    sent: SentMessages = field(init=False)
    members: SlackMembers = field(init=False)

    def __post_init__(self) -> None:
        self.emoji = WorkspaceEmoji(self.client)
        self.sent = SentMessages(self.client)
        self.members = SlackMembers(self._user_info, allow_list=self.admins)

    async def _user_info(self, user: str) -> Mapping[str, Any]:
        async with slack_call("users.info"):
            response = await self.client.users_info(user=user)
        info = response.get("user")
        if not isinstance(info, Mapping):
            raise PlatformError("Slack users.info: no user in the answer")
        return info

    async def close(self) -> None:
        if isinstance(self.client, SharedSessionWebClient):
            await self.client.close()


class Workspaces(Protocol):
    """The workspace a team id stands for."""

    async def get(self, team: str) -> SlackWorkspace:
        """Raises :class:`~bot.kernel.errors.WorkspaceRemoved` when the app is not installed
        there."""
        ...

    def forget(self, team: str) -> None:
        """Drop what is kept for ``team``: its installation changed or went away."""
        ...

    async def close(self) -> None: ...


class OneWorkspace:
    """A single bot token: the same workspace whatever the team id."""

    def __init__(self, workspace: SlackWorkspace) -> None:
        self.workspace = workspace

    async def get(self, team: str) -> SlackWorkspace:
        return self.workspace

    def forget(self, team: str) -> None:
        return None

    async def close(self) -> None:
        await self.workspace.close()


class BotFinder(Protocol):
    """Bolt's installation store as far as a workspace's bot goes."""

    async def async_find_bot(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        is_enterprise_install: bool | None = False,
    ) -> Bot | None: ...


class InstalledWorkspaces:
    """The workspaces that installed the app, each with its own bot token (cached per team)."""

    def __init__(
        self,
        installations: BotFinder,
        make_client: ClientFactory,
        *,
        workspace_rate: float | None,
        admins: Iterable[str] = (),
        ttl_seconds: float = DEFAULT_TTL_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._installations = installations
        self._make_client = make_client
        self._rate = workspace_rate
        self._admins = tuple(admins)
        self._ttl = ttl_seconds
        self._monotonic = monotonic
        self._cache: dict[str, tuple[float, SlackWorkspace]] = {}
        self._retired: list[SlackWorkspace] = []
        self._refused: dict[str, str] = {}  # team: the digest of the token Slack refused

    async def get(self, team: str) -> SlackWorkspace:
        now = self._monotonic()
        cached = self._cache.get(team)
        if cached is not None and cached[0] > now:
            return cached[1]
        bot = await self._installations.async_find_bot(enterprise_id=None, team_id=team)
        if bot is None or not bot.bot_token:
            self.forget(team)
            raise WorkspaceRemoved()
        if self._refused.get(team) == _digest(bot.bot_token):
            raise TokenRefused(team)
        self._refused.pop(team, None)
        cached = self._cache.get(team)  # another task may have looked it up meanwhile
        if cached is not None and cached[1].client.token == bot.bot_token:
            workspace = cached[1]  # the same installation: keep its pacing and session
        else:
            self.forget(team)
            pacer = WorkspacePacer(self._rate)
            client = self._make_client(bot.bot_token, pacer)
            workspace = SlackWorkspace(
                team=team,
                client=client,
                pacer=pacer,
                admins=self._admins,
                bot_user_id=bot.bot_user_id or "",
                bot_id=bot.bot_id or "",
            )
            client.on_token_refused = partial(self._token_refused, workspace)
        self._cache[team] = (now + self._ttl, workspace)
        return workspace

    def _token_refused(self, workspace: SlackWorkspace, code: str) -> None:
        team = workspace.team
        self._refused[team] = _digest(workspace.client.token or "")
        cached = self._cache.get(team)
        if cached is not None and cached[1] is workspace:
            self.forget(team)
        log.warning(
            "Slack refused the bot token of workspace %s (%s): it is not used again; "
            "the app works there again once it is reinstalled",
            team,
            code,
        )

    def forget(self, team: str) -> None:
        dropped = self._cache.pop(team, None)
        if dropped is not None:
            # Sends under way may still use its client: it is closed at stop, not now.
            self._retired.append(dropped[1])

    def __len__(self) -> int:
        return len(self._cache)

    async def close(self) -> None:
        workspaces = [w for _, w in self._cache.values()] + self._retired
        self._cache.clear()
        self._retired.clear()
        for workspace in workspaces:
            await workspace.close()


def _digest(token: str) -> str:
    """What is kept of a refused token: enough to know it again, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


class InstalledAuthorize(AsyncAuthorize):
    """Bolt's authorize step from the installed workspaces: the bot of the request's team,
    from the cache, without bolt's ``auth.test`` call on every request (the bot's ids
    were recorded at install time)."""

    def __init__(self, workspaces: InstalledWorkspaces) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self._workspaces = workspaces

    async def __call__(
        self,
        *,
        context: AsyncBoltContext,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None,
        actor_enterprise_id: str | None = None,
        actor_team_id: str | None = None,
        actor_user_id: str | None = None,
    ) -> AuthorizeResult | None:
        if not team_id:
            return None
        try:
            workspace = await self._workspaces.get(team_id)
        except WorkspaceRemoved:
            log.info("a request from Slack workspace %s, where the app is not installed", team_id)
            return None
        except TokenRefused:
            log.info("a request from Slack workspace %s, whose bot token Slack refused", team_id)
            return None
        return AuthorizeResult(
            enterprise_id=enterprise_id,
            team_id=team_id,
            bot_user_id=workspace.bot_user_id or None,
            bot_id=workspace.bot_id or None,
            bot_token=workspace.client.token,
            user_id=user_id,
        )
