"""The pages behind the links: checks a link, then draws the lead's page or a member's
page from the sections every feature declares (see :mod:`bot.kernel.dashboard_views`).

A link that grants nothing (changed, expired, for a channel or member that is no longer
there) gets 403 and one log line that says why, without the link's signature or the
secret. The page is the same HTML whoever fetches it: no cookie, no login.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.dashboard.html_page import error_html, page_html
from bot.dashboard.links import BadLink, LinkClaims, claims_for, link_query, verified
from bot.dashboard.store import DashboardStore
from bot.kernel.clock import Clock
from bot.kernel.dashboard_views import (
    DashboardPage,
    DashboardSectionSource,
    DashboardView,
)
from bot.kernel.models import ChannelSettings
from bot.kernel.own_views import channel_name
from bot.kernel.refs import MemberRef
from bot.kernel.stores import ChannelStore, MetaStore
from bot.member_data.store import MemberDataStore

log = logging.getLogger(__name__)

_SECRET_KEY = "dashboard-link-secret"  # the meta key of the generated secret
DEFAULT_LINK_MINUTES = 60

# No script, no frame, nothing fetched: only the inline style sheet and inline SVG images.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none';"
    " form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
}


@dataclass(frozen=True, slots=True)
class DashboardSettings:
    """Where the pages are served and how long a link lasts; ``secret``: the operator's
    (``QUIZBOT_DASHBOARD_SECRET``), else one generated once and kept in the database."""

    base_url: str | None = None  # e.g. http://127.0.0.1:8080; None: no pages here
    secret: str | None = None
    link_minutes: int = DEFAULT_LINK_MINUTES

    def __repr__(self) -> str:  # the secret never reaches a log line or an error
        return f"DashboardSettings(base_url={self.base_url!r}, link_minutes={self.link_minutes})"


@dataclass(frozen=True, slots=True)
class RenderedPage:
    status: int
    html: str


class NoDashboard(Exception):
    """The pages are not served here (no web server is configured)."""


class DashboardPages:
    def __init__(
        self,
        *,
        store: DashboardStore,
        channels: ChannelStore,
        members: MemberDataStore,
        meta: MetaStore,
        sections: Mapping[DashboardPage, Iterable[DashboardSectionSource]],
        clock: Clock,
        settings: DashboardSettings,
    ) -> None:
        self._store = store
        self._channels = channels
        self._members = members
        self._meta = meta
        self._sections = sections
        self._clock = clock
        self._settings = settings

    @property
    def settings(self) -> DashboardSettings:
        return self._settings

    async def link(self, page: DashboardPage, channel: ChannelSettings, member: MemberRef) -> str:
        """A signed link to ``page`` of ``channel`` for ``member``, valid for the setting's
        minutes from now. Raises :class:`NoDashboard` where no web server serves them."""
        base = self._settings.base_url
        if not base:
            raise NoDashboard(
                "The dashboard is not served here: the operator sets QUIZBOT_HTTP_PORT (and"
                " QUIZBOT_DASHBOARD_URL where members reach the bot by another address)."
            )
        claims = claims_for(
            page,
            channel.ref.platform,
            channel.ref.workspace,
            channel.id,
            member.member_id,
            self._clock.now(),
            timedelta(minutes=self._settings.link_minutes),
        )
        return base.rstrip("/") + link_query(await self._secret(), claims)

    async def render(self, page: str, query: Mapping[str, str]) -> RenderedPage:
        """The page a link asks for, or 403 (one log line) when the link grants nothing."""
        now = self._clock.now()
        try:
            claims = verified(await self._secret(), page, query, now)
            channel = await self._channel(claims)
            member = MemberRef(claims.platform, claims.workspace, claims.member)
            member_id = await self._members.find_member(member)
        except BadLink as bad:
            log.warning("dashboard link refused (page %r): %s", page[:20], bad)
            return RenderedPage(
                403, error_html("Link not valid", f"{bad}. Ask for a new one with /quiz dashboard.")
            )
        names = dict(await self._store.channel_members(channel.id))
        if member_id is not None and member_id in names:
            member = MemberRef(
                member.platform, member.workspace, member.member_id, names[member_id]
            )
        view = DashboardView(channel, member, member_id, now, await self._store.sharing(channel.id))
        # the sections only read: drawn together, one's queries overlap another's forecasts
        drawn = await asyncio.gather(*(source(view) for source in self._sections[claims.page]))
        sections = [section for section in drawn if section is not None]
        where = channel_name(channel)
        if claims.page is DashboardPage.LEAD:
            title = f"{where}: the team's quiz"
            intro = (
                "The lead's page of this channel, read-only. Members appear by name only if"
                " they share (/quiz dashboard share on); everyone else is in aggregates of at"
                " least three."
            )
        else:
            title = f"{member.label()}: your quiz in {where}"
            intro = "Your own page in this channel, read-only: only you were given this link."
            if member_id is None:
                intro += " Nothing of yours is stored yet: answer a question here first."
        expires = f"{_utc(claims.expires)}"
        footer = f"Drawn at {now:%Y-%m-%d %H:%M} UTC; this link expires at {expires} UTC."
        return RenderedPage(200, page_html(title, intro, sections, footer))

    async def _channel(self, claims: LinkClaims) -> ChannelSettings:
        channel = await self._channels.get_channel_by_id(claims.channel_id)
        if channel is None:
            raise BadLink("no such channel")
        if (channel.ref.platform, channel.ref.workspace) != (claims.platform, claims.workspace):
            raise BadLink("the channel is not in the link's workspace")
        return channel

    async def _secret(self) -> bytes:
        if self._settings.secret:
            return self._settings.secret.encode()
        stored = await self._meta.get_meta(_SECRET_KEY)
        if stored is None:
            await self._meta.set_meta(_SECRET_KEY, secrets.token_hex(32))
            # read back: of two replicas generating at once, the last write is everyone's
            stored = await self._meta.get_meta(_SECRET_KEY)
        assert stored is not None
        return stored.encode()


def _utc(epoch: int) -> str:
    return f"{datetime.fromtimestamp(epoch, UTC):%Y-%m-%d %H:%M}"
