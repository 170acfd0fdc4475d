"""A log line that a flood of bad requests cannot turn into a flood of lines.

The first occurrence is logged; further ones within ``interval`` seconds are
counted, and the next line that gets through says how many were left out.
:class:`HttpServerLog` does this for the requests an aiohttp server cannot parse.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from typing import Any

from aiohttp.http_exceptions import HttpProcessingError


class ThrottledLog:
    """Logs the first line of a burst and counts the rest into the next line let through."""

    def __init__(
        self,
        logger: logging.Logger,
        level: int,
        *,
        interval: float = 10.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._logger = logger
        self._level = level
        self._interval = interval
        self._monotonic = monotonic
        self._next_at = float("-inf")
        self._left_out = 0

    def __call__(self, message: str, *args: object) -> None:
        now = self._monotonic()
        if now < self._next_at:
            self._left_out += 1
            return
        self._next_at = now + self._interval
        if self._left_out:
            message += f" ({self._left_out} more like it left out)"
            self._left_out = 0
        self._logger.log(self._level, message, *args)


class HttpServerLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """aiohttp's server logger, except that a request it could not parse (an oversized
    header, a broken request line) is the client's fault: one throttled line, no
    traceback. Anything else keeps its traceback."""

    def __init__(self, logger: logging.Logger) -> None:
        super().__init__(logger, {})
        self._refused = ThrottledLog(logger, logging.WARNING)

    def exception(self, msg: object, *args: Any, exc_info: Any = True, **kwargs: Any) -> None:
        error = exc_info if isinstance(exc_info, BaseException) else sys.exc_info()[1]
        if isinstance(error, HttpProcessingError) and 400 <= error.code < 500:
            self._refused("refused a malformed HTTP request: %s", error.message)
            return
        super().exception(msg, *args, exc_info=exc_info, **kwargs)
