"""Slack Web API failures as the core's :class:`~bot.kernel.errors.PlatformError`.

Messages name the method and Slack's error code only: never the request,
whose headers carry the token.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
from slack_sdk.errors import SlackApiError

from bot.kernel.errors import ChannelUnavailable, PlatformError

CHANNEL_GONE = frozenset({"channel_not_found", "not_in_channel", "is_archived"})
# Slack will not take this token again: it was revoked, or its bot user deactivated.
TOKEN_REFUSED = frozenset({"invalid_auth", "account_inactive", "token_revoked"})
DEFAULT_RETRY_AFTER = 1.0


class TokenRefused(PlatformError):
    """Slack refused the workspace's bot token: nothing is tried with it again; installing
    the app there again brings a new one."""

    def __init__(self, team: str) -> None:
        super().__init__(
            f"Slack refused the bot token of workspace {team}: install the app there again"
        )


def error_code(error: SlackApiError) -> str:
    data = error.response.data if error.response is not None else None
    code = data.get("error") if isinstance(data, dict) else None
    return str(code) if code else f"http_{getattr(error.response, 'status_code', 'unknown')}"


def retry_after(error: SlackApiError) -> float:
    headers = getattr(error.response, "headers", None) or {}
    raw = headers.get("Retry-After") or headers.get("retry-after")
    try:
        return max(0.0, float(raw)) if raw is not None else DEFAULT_RETRY_AFTER
    except ValueError:
        return DEFAULT_RETRY_AFTER


# Slack's own trouble, which passes: a call answered so is worth trying again later.
PASSING = frozenset(
    {"ratelimited", "internal_error", "fatal_error", "service_unavailable", "request_timeout"}
)


def refused_for_good(error: SlackApiError) -> bool:
    """Whether Slack refused the call for a reason that trying again will not change (a
    missing scope, a disabled feature, a bad argument) rather than for its own trouble."""
    status = getattr(error.response, "status_code", None)
    passing = error_code(error) in PASSING or status == 429 or (status or 0) >= 500
    return not passing


def to_platform_error(method: str, error: SlackApiError) -> PlatformError:
    code = error_code(error)
    status = getattr(error.response, "status_code", None)
    if code == "ratelimited" or status == 429:
        return PlatformError(f"Slack {method}: ratelimited", retry_after=retry_after(error))
    if code in CHANNEL_GONE:
        return ChannelUnavailable(f"Slack {method}: {code}")
    return PlatformError(f"Slack {method}: {code}")


@asynccontextmanager
async def slack_call(method: str) -> AsyncIterator[None]:
    """Turn any failure of the Web API call made inside into a ``PlatformError``."""
    try:
        yield
    except SlackApiError as error:
        raise to_platform_error(method, error) from error
    except (TimeoutError, aiohttp.ClientError) as error:
        raise PlatformError(f"Slack {method}: {type(error).__name__}") from error
