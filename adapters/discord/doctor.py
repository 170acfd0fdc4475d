"""What ``quizbot doctor`` checks of Discord: the bot token, with Discord itself."""

from __future__ import annotations

import aiohttp

from adapters.checks import NETWORK_TIMEOUT, Check
from adapters.discord.settings import DiscordSettings
from adapters.plugin import DoctorContext

DISCORD_API_URL = "https://discord.com/api/v10"


async def discord_checks(settings: DiscordSettings, context: DoctorContext) -> list[Check]:
    return [await check_discord(settings)]


async def check_discord(settings: DiscordSettings) -> Check:
    """``GET /users/@me`` with ``Authorization: Bot <token>``."""
    base = (settings.discord_api_url or DISCORD_API_URL).rstrip("/")
    if settings.discord_token is None:
        return Check("discord", False, "no token", "set QUIZBOT_DISCORD_TOKEN")
    headers = {"Authorization": f"Bot {settings.discord_token.get_secret_value()}"}
    timeout = aiohttp.ClientTimeout(total=NETWORK_TIMEOUT)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(f"{base}/users/@me", headers=headers) as response,
        ):
            status = response.status
            body = await response.text()
            identity = await response.json(content_type=None) if status == 200 else {}
    except (aiohttp.ClientError, TimeoutError, OSError, ValueError) as error:
        return Check(
            "discord",
            False,
            f"cannot reach the Discord API at {base}: {type(error).__name__}: {error}",
            "check the network and QUIZBOT_DISCORD_API_URL (unset it for discord.com)",
        )
    if status == 401:
        return Check(
            "discord",
            False,
            "the token was rejected (401 Unauthorized)",
            "reset the token in the Developer Portal › your application › Bot and set it as "
            "QUIZBOT_DISCORD_TOKEN",
        )
    if status != 200:
        return Check(
            "discord",
            False,
            f"GET /users/@me answered {status}: {body[:200]}",
            "check QUIZBOT_DISCORD_API_URL and Discord's status page",
        )
    name = identity.get("username", "?") if isinstance(identity, dict) else "?"
    user_id = identity.get("id", "?") if isinstance(identity, dict) else "?"
    return Check("discord", True, f"signed in as {name} (id {user_id})")
