"""Translate discord.py failures into the core's :class:`~bot.kernel.errors.PlatformError`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import aiohttp
import discord

from bot.kernel.errors import ChannelUnavailable, PlatformError

# Discord JSON error codes that mean the channel itself is gone or closed to the bot.
UNKNOWN_CHANNEL = 10003
CHANNEL_CODES = {UNKNOWN_CHANNEL, 50001, 50013, 50083}  # + missing access/permissions, archived


def _retry_after(error: discord.HTTPException) -> float | None:
    header = error.response.headers.get("Retry-After") if error.response is not None else None
    try:
        return float(header) if header is not None else None
    except ValueError:
        return None


def translate(error: Exception, what: str) -> PlatformError:
    """A PlatformError for ``error`` raised while doing ``what`` (never echoes secrets)."""
    if isinstance(error, discord.RateLimited):
        return PlatformError(f"{what}: rate limited by Discord", retry_after=error.retry_after)
    if isinstance(error, discord.Forbidden):
        return ChannelUnavailable(f"{what}: Discord answered 403 ({error.code}: {error.text})")
    if isinstance(error, discord.NotFound):
        if error.code in CHANNEL_CODES or error.code == 0:
            return ChannelUnavailable(f"{what}: Discord answered 404 ({error.code}: {error.text})")
        return PlatformError(f"{what}: Discord answered 404 ({error.code}: {error.text})")
    if isinstance(error, discord.HTTPException):
        if error.code in CHANNEL_CODES:
            return ChannelUnavailable(f"{what}: {error.code}: {error.text}")
        return PlatformError(
            f"{what}: Discord answered {error.status} ({error.code}: {error.text})",
            retry_after=_retry_after(error) if error.status == 429 else None,
        )
    if isinstance(error, aiohttp.ClientError | OSError | TimeoutError):
        return PlatformError(f"{what}: cannot reach Discord ({type(error).__name__})")
    return PlatformError(f"{what}: {type(error).__name__}: {error}")


@contextmanager
def platform_errors(what: str) -> Iterator[None]:
    """Re-raise discord.py, aiohttp and socket errors as PlatformError."""
    try:
        yield
    except PlatformError:
        raise
    except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as error:
        raise translate(error, what) from error
