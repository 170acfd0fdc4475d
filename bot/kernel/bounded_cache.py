"""A dictionary that keeps only its most recently used entries.

The engine and the store remember facts per round (which round a thread belongs
to, its channel, whether its follow-ups were queued) to save a query. A round
is only looked up while it is open, so its facts need not live for ever: at
10,000 channels a year of rounds would otherwise be millions of entries.
Dropping one only costs a query the next time it is needed.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

DEFAULT_SIZE = 20_000  # twice the open rounds of 10,000 channels


class BoundedCache(Generic[K, V]):
    """A mapping of at most ``size`` entries that drops the least recently used one."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        if size < 1:
            raise ValueError("a cache holds at least one entry")
        self._size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def update(self, pairs: Iterable[tuple[K, V]]) -> None:
        for key, value in pairs:
            self.put(key, value)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)
