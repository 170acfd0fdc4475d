"""Errors that cross the Platform port."""

from __future__ import annotations


class PlatformError(Exception):
    """A platform call failed. ``retry_after`` (seconds) is the platform's own hint, if any."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ChannelUnavailable(PlatformError):
    """The channel is gone or closed to the bot (403/404, archived, not a member).

    The engine disables the channel with this reason instead of retrying forever.
    """
