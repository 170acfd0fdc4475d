"""Work the Slack adapter runs after acknowledging a request, tracked so no error vanishes.

A slash command or a button must be acknowledged within 3 seconds, so the
answer is produced after the ``ack()``. Each such job is a task kept here:
its failure is logged, and :meth:`BackgroundWork.drain` waits for all of them
(on shutdown, and in tests).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class BackgroundWork:
    """Work run after a request was acknowledged, tracked so none is lost or unlogged."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, job: Coroutine[Any, Any, None], *, name: str) -> None:
        task = asyncio.get_running_loop().create_task(job, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        problem = task.exception()
        if problem is not None:
            log.error("Slack job %s failed", task.get_name(), exc_info=problem)

    async def drain(self) -> None:
        """Wait until every job (including jobs started meanwhile) has finished."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
