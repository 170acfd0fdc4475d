"""Signed, expiring links to the pages: an HMAC-SHA256 over the page, the platform, the
workspace, the channel, the member and the expiry, with the installation's secret.

A link carries everything the page needs (nothing is stored per link), and changing any
of it (another channel, another member, a later expiry) breaks the signature. The secret
never appears in a link, a log line or an error.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlencode

from bot.kernel.dashboard_views import DashboardPage

PATH = "/dashboard/"  # the pages' path on the bot's web server: /dashboard/lead?...
_FIELDS = ("p", "w", "c", "m", "e")  # platform, workspace, channel store id, member, expiry
_VERSION = "v1"


@dataclass(frozen=True, slots=True)
class LinkClaims:
    """What a link grants: one page of one channel, for one member, until ``expires``."""

    page: DashboardPage
    platform: str
    workspace: str
    channel_id: int  # the channel's store id
    member: str  # the platform's id of the member (the page's, or the admin who asked)
    expires: int  # seconds since the epoch


class BadLink(Exception):
    """A link that grants nothing; the message says why, and holds no secret."""


def _message(claims: LinkClaims) -> bytes:
    parts = (
        _VERSION,
        claims.page.value,
        claims.platform,
        claims.workspace,
        str(claims.channel_id),
        claims.member,
        str(claims.expires),
    )
    # a separator no part may hold: "a|b" + "c" never signs like "a" + "b|c"
    return "\x1f".join(parts).encode()


def signature(secret: bytes, claims: LinkClaims) -> str:
    return hmac.new(secret, _message(claims), hashlib.sha256).hexdigest()


def link_query(secret: bytes, claims: LinkClaims) -> str:
    """The link's path and query: ``/dashboard/lead?p=...&s=SIGNATURE``."""
    query = {
        "p": claims.platform,
        "w": claims.workspace,
        "c": str(claims.channel_id),
        "m": claims.member,
        "e": str(claims.expires),
        "s": signature(secret, claims),
    }
    return f"{PATH}{claims.page.value}?{urlencode(query)}"


def claims_for(
    page: DashboardPage,
    platform: str,
    workspace: str,
    channel_id: int,
    member: str,
    now: datetime,
    valid_for: timedelta,
) -> LinkClaims:
    return LinkClaims(
        page, platform, workspace, channel_id, member, int((now + valid_for).timestamp())
    )


def verified(secret: bytes, page: str, query: Mapping[str, str], now: datetime) -> LinkClaims:
    """The claims of a link whose signature holds and which has not expired.

    Raises :class:`BadLink` saying which (unknown page, missing part, bad signature,
    expired), never echoing the signature."""
    try:
        wanted = DashboardPage(page)
    except ValueError:
        raise BadLink(f"no such page: {page[:40]!r}") from None
    missing = [name for name in (*_FIELDS, "s") if not query.get(name)]
    if missing:
        raise BadLink(f"the link lacks {', '.join(missing)}")
    channel, expires = query["c"], query["e"]
    if not (channel.isascii() and channel.isdigit() and expires.isascii() and expires.isdigit()):
        raise BadLink("the link's channel or expiry is not a number")
    if len(channel) > 18 or len(expires) > 12:
        raise BadLink("the link's channel or expiry is out of range")
    claims = LinkClaims(wanted, query["p"], query["w"], int(channel), query["m"], int(expires))
    if not hmac.compare_digest(signature(secret, claims), query["s"]):
        raise BadLink("the signature does not match (the link was changed)")
    if claims.expires <= now.timestamp():
        raise BadLink("the link has expired")
    return claims
