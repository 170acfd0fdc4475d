"""Keeps a process's channel settings, and what else it keeps of the store (``Followed``:
the bank's questions, the members' reminders, the channels' pairing slots), in step with
a store that other processes change.

Replicas sharing PostgreSQL each keep the channels' settings in memory (the engine's
cache, the scheduler's jobs), and so the workspaces' questions and overrides (the
engine's catalog), the members' reminders and the channels' pairing slots (their
schedulers' jobs). A change one
replica makes reaches the others two ways:

- at once: the store announces each changed row (a NOTIFY sent by the transaction
  that changes it) and every replica reads that row again;
- at the latest after ``RECONCILE_INTERVAL``: every replica compares each row's
  version with the one it saw last and reads again those that differ or are gone. This
  catches what the announcements missed (the listening connection was lost; a change
  made by hand), and is when a lost listener is opened again.

Either way what is stored goes to the kind's ``apply``, the path a change made here
takes, one row at a time and in the order they were read. Listening is only ever a
shortcut: when it fails, the reconciliation still brings every change, a minute late.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any, TypeVar

from bot.kernel.followed import Followed
from bot.kernel.models import ChannelSettings
from bot.kernel.stores import ChangeKind, ChannelChanges, ChannelListener

log = logging.getLogger(__name__)

RECONCILE_INTERVAL = timedelta(seconds=60)

T = TypeVar("T")
Key = tuple[ChangeKind, int]  # what changed: its kind, and its number (a channel's id...)


class ChannelSync:
    """Reads again, and hands to ``apply``, each channel another process changed; and so
    for each row of the ``also`` kinds."""

    def __init__(
        self,
        changes: ChannelChanges,
        read: Callable[[int], Awaitable[ChannelSettings | None]],
        apply: Callable[[ChannelSettings], None],
        *,
        also: Sequence[Followed[Any]] = (),
        interval: timedelta = RECONCILE_INTERVAL,
    ) -> None:
        def apply_channel(channel_id: int, settings: ChannelSettings | None) -> None:
            if settings is not None:  # channels are never deleted
                apply(settings)

        channels = Followed(ChangeKind.CHANNEL, changes.channel_versions, read, apply_channel)
        self._followed: dict[ChangeKind, Followed[Any]] = {
            followed.kind: followed for followed in (channels, *also)
        }
        self._changes = changes
        self._interval = interval
        self._versions: dict[ChangeKind, dict[int, int]] = {}  # each row's when last read
        self._heard: dict[Key, None] = {}  # rows announced and not read yet, in order
        self._wake = asyncio.Event()
        self._one_at_a_time = asyncio.Lock()  # a later read is never applied before an earlier
        self._listener: ChannelListener | None = None
        self._listening: bool | None = None  # None: not tried yet
        self._waiting: dict[Key, list[asyncio.Future[Any]]] = {}
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    @property
    def listening(self) -> bool:
        """Whether changes arrive as they are made (else with the reconciliation only)."""
        return bool(self._listening)

    async def begin(self) -> None:
        """Note every row's version and start listening. Call it before reading the
        channels (and the other kinds) to start with: a change after that is then not
        missed."""
        self._versions = {kind: await f.versions() for kind, f in self._followed.items()}
        await self._listen()

    def start(self) -> None:
        """Apply what was heard since :meth:`begin`, and go on in the background."""
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name="channel-sync")

    async def stop(self) -> None:
        """Stop following and close the listener."""
        if self._task is not None:
            # Told as well as cancelled: a library call that finishes in the turn of the
            # cancellation may swallow it (Python 3.11's wait_for does), and the loop must
            # end all the same, or a replica's shutdown waits for it for ever.
            self._stopping = True
            self._wake.set()
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

    def next_refresh(
        self, number: int, kind: ChangeKind = ChangeKind.CHANNEL
    ) -> asyncio.Future[Any]:
        """Resolved with what was read of the row (a channel's settings by default) when
        it is next applied."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault((kind, number), []).append(future)
        return future

    async def reconcile(self) -> int:
        """Listen again if the listener was lost, then read again every row whose version
        changed since it was last read, or that is gone; returns how many changed."""
        if not await self._still_listening():
            await self._listen()
        count = 0
        for kind, followed in self._followed.items():
            versions = await followed.versions()
            seen = self._versions.setdefault(kind, {})
            changed = [n for n, version in versions.items() if seen.get(n) != version]
            changed += [n for n in seen if n not in versions]
            for number in changed:
                if await self._refresh(kind, number):
                    if number in versions:
                        seen[number] = versions[number]
                    else:
                        seen.pop(number, None)
            count += len(changed)
        return count

    # listening

    async def _listen(self) -> None:
        try:
            self._listener = await self._changes.listen_changes(self._changed, self._lost)
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

    def _changed(self, kind: ChangeKind, number: int) -> None:
        self._heard[(kind, number)] = None
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
        while not self._stopping:
            self._wake.clear()
            while self._heard and not self._stopping:
                kind, number = next(iter(self._heard))
                del self._heard[(kind, number)]
                await self._refresh(kind, number)
            if loop.time() >= deadline:
                try:
                    await self.reconcile()
                except Exception as error:
                    log.warning("checking the channels for changes failed: %s", error)
                deadline = loop.time() + self._interval.total_seconds()
                continue
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout_at(deadline):
                    await self._wake.wait()

    async def _refresh(self, kind: ChangeKind, number: int) -> bool:
        """Read the row and apply it; False when that failed (tried again later)."""
        followed = self._followed.get(kind)
        if followed is None:
            return True  # a kind this process does not keep
        async with self._one_at_a_time:
            try:
                stored = await followed.read(number)
            except Exception as error:
                log.warning("reading %s %d after a change failed: %s", kind, number, error)
                return False
            try:
                followed.apply(number, stored)
            except Exception:
                log.exception("applying the change of %s %d failed", kind, number)
                return False
        for future in self._waiting.pop((kind, number), []):
            if not future.done():
                future.set_result(stored)
        return True
