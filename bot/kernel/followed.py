"""Rows of one kind that other processes (replicas sharing a PostgreSQL store) change, and
what a process does to follow them: a feature declares its own (``follows`` in its face),
:mod:`bot.channel_sync` reads each changed row again and hands it over."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from bot.kernel.stores import ChangeKind

T = TypeVar("T")


@dataclass(frozen=True)
class Followed(Generic[T]):
    """Rows of one kind that other processes change, followed as the channels are:
    every row's version by its number, how to read one again (None: it is gone), and
    what to do with what was read."""

    kind: ChangeKind
    versions: Callable[[], Awaitable[dict[int, int]]]
    read: Callable[[int], Awaitable[T | None]]
    apply: Callable[[int, T | None], None]
