"""Counting a test's round trips to SQLite's thread: each call aiosqlite hands to its
thread (``Connection._execute``, its one way to run anything there) is one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import aiosqlite
import pytest


class RoundTripCounter:
    """``calls``: round trips so far, while :meth:`counting`."""

    def __init__(self) -> None:
        self.calls = 0

    @contextmanager
    def counting(self, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
        real: Callable[..., Awaitable[Any]] = aiosqlite.Connection._execute

        async def counted(conn: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return await real(conn, fn, *args, **kwargs)

        with monkeypatch.context() as patch:
            patch.setattr(aiosqlite.Connection, "_execute", counted)
            yield
