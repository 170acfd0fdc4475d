"""Group commit: many concurrent writers, one transaction per batch.

Callers ``submit`` an item and wait; a single writer task takes every item
queued so far, writes them with one ``write_batch`` call (one transaction) and
only then resolves each caller's future. Nothing is acknowledged before it is
committed: when a batch fails, every caller in it gets the error.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

from storage.errors import StoreClosedError

Item = TypeVar("Item")
Result = TypeVar("Result")

# One result per item, in order: a value, or the exception for that item alone.
BatchWriter = Callable[[Sequence[Item]], Awaitable[Sequence[Result | Exception]]]


class GroupCommitter(Generic[Item, Result]):
    """Collects concurrent writes into one transaction and answers each caller after
    the commit."""

    def __init__(
        self, write_batch: BatchWriter[Item, Result], *, name: str, max_batch: int = 2000
    ) -> None:
        if max_batch < 1:
            raise ValueError("max_batch must be at least 1")
        self._write_batch = write_batch
        self._name = name
        self._max_batch = max_batch
        self._queue: deque[tuple[Item, asyncio.Future[Result]]] = deque()
        self._wakeup = asyncio.Event()
        self._closing = False
        self._task: asyncio.Task[None] | None = None
        self.batches = 0  # written batches, for metrics and tests

    def start(self) -> None:
        if self._task is not None:
            raise RuntimeError(f"{self._name} writer already started")
        self._task = asyncio.create_task(self._run(), name=f"{self._name} writer")

    async def submit(self, item: Item) -> Result:
        """Queue ``item`` and return its result once its batch is committed."""
        if self._closing or self._task is None:
            raise StoreClosedError(f"{self._name}: the store is closed")
        if self._task.done():
            raise StoreClosedError(f"{self._name}: the writer task stopped")
        future: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        self._queue.append((item, future))
        self._wakeup.set()
        return await future

    async def close(self) -> None:
        """Write what is queued, then stop the writer task (re-raising a crash of it)."""
        self._closing = True
        self._wakeup.set()
        if self._task is not None:
            await self._task

    async def _run(self) -> None:
        try:
            while True:
                await self._wakeup.wait()
                self._wakeup.clear()
                while self._queue:
                    count = min(len(self._queue), self._max_batch)
                    await self._write([self._queue.popleft() for _ in range(count)])
                if self._closing:
                    return
        finally:
            # Only reached with items left when the task itself is cancelled.
            while self._queue:
                _, future = self._queue.popleft()
                if not future.done():
                    future.set_exception(StoreClosedError(f"{self._name}: the store closed"))

    async def _write(self, batch: list[tuple[Item, asyncio.Future[Result]]]) -> None:
        self.batches += 1
        try:
            results = await self._write_batch([item for item, _ in batch])
            if len(results) != len(batch):
                raise RuntimeError(f"{self._name}: {len(results)} results for {len(batch)} items")
        except Exception as error:
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        except BaseException as error:  # cancelled mid-batch: nobody may think it committed
            for _, future in batch:
                if not future.done():
                    future.set_exception(StoreClosedError(f"{self._name}: {error!r}"))
            raise
        for (_, future), result in zip(batch, results, strict=True):
            if future.done():  # the caller was cancelled; the item is committed anyway
                continue
            if isinstance(result, Exception):
                future.set_exception(result)
            else:
                future.set_result(result)
