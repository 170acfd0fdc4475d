"""Keeps a process's channel settings in step with a store that other processes change.

Replicas sharing PostgreSQL each keep the channels' settings in memory (the engine's
cache, the scheduler's jobs). A change one replica makes reaches the others two ways:

- at once: the store announces each changed channel (a NOTIFY sent by the transaction
  that changes it) and every replica reads that channel again;
- at the latest after ``RECONCILE_INTERVAL``: every replica compares each channel's
  version with the one it saw last and reads again those that differ. This catches what
  the announcements missed (the listening connection was lost; a change made by hand),
  and is when a lost listener is opened again.

Either way the stored settings go to ``apply``, the path a change made here takes, one
channel at a time and in the order they were read. Listening is only ever a shortcut:
when it fails, the reconciliation still brings every change, a minute late.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.models import ChannelSettings
from bot.ports import ChannelChanges, ChannelListener

log = logging.getLogger(__name__)

RECONCILE_INTERVAL = timedelta(seconds=60)


class ChannelSync:
    """Reads again, and hands to ``apply``, each channel another process changed."""

    def __init__(
        self,
        changes: ChannelChanges,
        read: Callable[[int], Awaitable[ChannelSettings | None]],
        apply: Callable[[ChannelSettings], None],
        *,
        interval: timedelta = RECONCILE_INTERVAL,
    ) -> None:
        self._changes = changes
        self._read = read
        self._apply = apply
        self._interval = interval
        self._versions: dict[int, int] = {}  # each channel's version when last read
        self._heard: dict[int, None] = {}  # channels announced and not read yet, in order
        self._wake = asyncio.Event()
        self._one_at_a_time = asyncio.Lock()  # a later read is never applied before an earlier
        self._listener: ChannelListener | None = None
        self._listening: bool | None = None  # None: not tried yet
        self._waiting: dict[int, list[asyncio.Future[ChannelSettings]]] = {}
        self._task: asyncio.Task[None] | None = None

    @property
    def listening(self) -> bool:
        """Whether changes arrive as they are made (else with the reconciliation only)."""
        return bool(self._listening)

    async def begin(self) -> None:
        """Note every channel's version and start listening. Call it before reading the
        channels to start with: a change after that is then not missed."""
        self._versions = await self._changes.channel_versions()
        await self._listen()

    def start(self) -> None:
        """Apply what was heard since :meth:`begin`, and go on in the background."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="channel-sync")

    async def stop(self) -> None:
        """Stop following and close the listener."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        listener, self._listener = self._listener, None
        self._listening = None
        if listener is not None:
            try:
                await listener.close()
            except Exception as error:
                log.warning("closing the channel-change listener failed: %s", error)
        for waiting in self._waiting.values():
            for future in waiting:
                future.cancel()
        self._waiting.clear()

    def next_refresh(self, channel_id: int) -> asyncio.Future[ChannelSettings]:
        """Resolved with the settings of the channel when they are next applied."""
        future: asyncio.Future[ChannelSettings] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(channel_id, []).append(future)
        return future

    async def reconcile(self) -> int:
        """Listen again if the listener was lost, then read again every channel whose
        version changed since it was last read; returns how many changed."""
        if not await self._still_listening():
            await self._listen()
        versions = await self._changes.channel_versions()
        changed = [cid for cid, version in versions.items() if self._versions.get(cid) != version]
        for channel_id in changed:
            if await self._refresh(channel_id):
                self._versions[channel_id] = versions[channel_id]
        return len(changed)

    # listening

    async def _listen(self) -> None:
        try:
            self._listener = await self._changes.listen_channels(self._changed, self._lost)
        except Exception as error:  # whatever it is, the reconciliation still works
            self._listener = None
            if self._listening is not False:
                self._listening = False
                log.warning(
                    "cannot listen for channel changes (%s); other replicas' changes"
                    " arrive with the check every %d s until it works",
                    error,
                    self._interval.total_seconds(),
                )
            return
        if self._listening is False:
            log.info("listening for channel changes again")
        self._listening = True

    async def _still_listening(self) -> bool:
        listener = self._listener
        if listener is None:
            return False
        try:
            alive = await listener.alive()
        except Exception:
            alive = False
        if not alive:
            self._listener = None
            with contextlib.suppress(Exception):
                await listener.close()
            self._lost()
        return alive

    def _changed(self, channel_id: int) -> None:
        self._heard[channel_id] = None
        self._wake.set()

    def _lost(self) -> None:
        if self._listening:
            log.warning(
                "lost the connection that hears of channel changes; other replicas'"
                " changes arrive with the check every %d s until it is back",
                self._interval.total_seconds(),
            )
        self._listening = False

    # reading and applying

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._interval.total_seconds()
        while True:
            self._wake.clear()
            while self._heard:
                channel_id = next(iter(self._heard))
                del self._heard[channel_id]
                await self._refresh(channel_id)
            if loop.time() >= deadline:
                try:
                    await self.reconcile()
                except Exception as error:
                    log.warning("checking the channels for changes failed: %s", error)
                deadline = loop.time() + self._interval.total_seconds()
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), deadline - loop.time())

    async def _refresh(self, channel_id: int) -> bool:
        """Read the channel and apply it; False when that failed (tried again later)."""
        async with self._one_at_a_time:
            try:
                settings = await self._read(channel_id)
            except Exception as error:
                log.warning("reading channel %d after a change failed: %s", channel_id, error)
                return False
            if settings is None:
                return True
            try:
                self._apply(settings)
            except Exception:
                log.exception("applying the changed settings of channel %d failed", channel_id)
                return False
        for future in self._waiting.pop(channel_id, []):
            if not future.done():
                future.set_result(settings)
        return True
