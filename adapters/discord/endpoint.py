"""Point discord.py at another API base URL (a shared rate-limit proxy, or a test fake).

discord.py keeps both endpoints in class attributes, so this is process-wide:
``Route.BASE`` for every REST call (webhooks and interaction callbacks
included) and ``DiscordWebSocket.DEFAULT_GATEWAY``, which a plain ``Client``
always dials. The gateway URL is taken from the override's own
``GET /gateway/bot`` answer, as Discord documents for bots.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.settings import SettingsError

DEFAULT_API_BASE = Route.BASE
DEFAULT_GATEWAY = DiscordWebSocket.DEFAULT_GATEWAY


def check_api_url(api_url: str) -> str:
    """The URL without a trailing slash; SettingsError when it is not an http(s) URL."""
    parts = urlsplit(api_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise SettingsError(
            "QUIZBOT_DISCORD_API_URL must be an http(s) URL such as "
            f"https://proxy.example/api/v10, not {api_url!r}"
        )
    return api_url.rstrip("/")


def use_api_base(api_url: str) -> None:
    Route.BASE = check_api_url(api_url)


async def use_gateway_of(http: discord.http.HTTPClient) -> str:
    """Ask the current API base for the gateway URL and make it the default; returns it."""
    _shards, url, _limits = await http.get_bot_gateway()
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
    return url


def restore_defaults() -> None:
    Route.BASE = DEFAULT_API_BASE
    DiscordWebSocket.DEFAULT_GATEWAY = DEFAULT_GATEWAY
