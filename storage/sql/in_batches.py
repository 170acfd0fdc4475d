"""Reads of many values by ``IN (...)``, a batch at a time."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")
IN_BATCH = 200  # values bound in one read: far under either backend's parameter limit


def in_batches(values: Sequence[T], size: int = IN_BATCH) -> Iterator[tuple[Sequence[T], str]]:
    """``values`` in runs of at most ``size``, each with its placeholders (``?, ?, ?``)."""
    for start in range(0, len(values), size):
        batch = values[start : start + size]
        yield batch, ", ".join("?" * len(batch))
