"""The outbox worker: performs each recorded action exactly once.

A round's actions are performed in order, each after the one it builds on; a direct
action (a stored card for one member's DM channel, e.g. a practice step or a reminder)
belongs to no round and is performed on its own.

Every action was stored with a deterministic key before anything was sent.
An attempt is counted *before* the send; when an action that already had an
attempt comes round again (a crash or a lost answer between sending and
recording), the platform is first asked whether a message with that key was
already sent, so a retry never posts twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.kernel.clock import Clock
from bot.kernel.config import QuizConfig
from bot.kernel.metrics import Metrics
from bot.kernel.models import ActionKind, ChannelSettings, OutboxAction, Revealed, Round
from bot.kernel.platform import Platform, SendSlots
from bot.outbox.direct_actions import DirectActions
from bot.outbox.performers import Performers
from bot.outbox.retries import Retries
from bot.outbox.round_actions import (
    ChannelDisabler,
    KnownQuestion,
    RoundActions,
    RoundsOfActions,
    Sent,
)
from bot.outbox.store import OutboxStore

log = logging.getLogger(__name__)

__all__ = ["OutboxWorker", "PassResult", "Sent"]

PASS_LIMIT = 1000  # due actions taken per pass
# Replicas sharing a store: a pass claims only about what its send slots get through well
# within the lease, so the other replicas take the rest instead of idling while one works
# through a batch it claimed whole (and whose lease would run out before its turn came).
SHARED_PASS_PER_SLOT = 4
# With nothing pending the worker still looks once in a while: a safety net only,
# every enqueue wakes it and a retry's time is known.
IDLE_SECONDS = 60.0
RETRY_PASS_SECONDS = 1.0  # after a pass failed (e.g. the database was busy)


@dataclass(frozen=True, slots=True)
class PassResult:
    """Actions one pass completed, handed over and read from the due index, whether
    more were due than one pass takes, and whether it looked at the due index."""

    handed: int
    from_due_index: int
    saturated: bool
    looked: bool = True  # False: nothing could be due but what was handed over


class OutboxWorker:
    """Performs due outbox actions once each through the Platform port, by the performers
    the features registered, records their results, retries failures with backoff and
    disables channels that are gone."""

    def __init__(
        self,
        *,
        outbox: OutboxStore,
        rounds: RoundsOfActions,
        platforms: Mapping[str, Platform],
        performers: Performers,
        known_question: KnownQuestion,
        clock: Clock,
        config: QuizConfig,
        disable_channel: ChannelDisabler,
        metrics: Metrics,
        lease: timedelta | None = None,
    ) -> None:
        self._outbox = outbox
        self._platforms = platforms
        self._clock = clock
        self._config = config
        self.performers = performers
        retries = Retries(outbox, clock, config, metrics)
        self._rounds = RoundActions(
            outbox=outbox,
            rounds=rounds,
            platforms=platforms,
            performers=performers,
            known_question=known_question,
            clock=clock,
            metrics=metrics,
            retries=retries,
            disable_channel=disable_channel,
        )
        self._direct = DirectActions(
            outbox=outbox,
            platforms=platforms,
            performers=performers,
            clock=clock,
            metrics=metrics,
            retries=retries,
        )
        self._wake = asyncio.Event()
        self._pass_lock = asyncio.Lock()
        self._handed: dict[int, tuple[Round, ChannelSettings, list[OutboxAction]]] = {}
        # Enqueues so far, and how many there had been when the due index was last read
        # and found nothing due before ``_next_due`` (None: nothing pending): a pass may
        # skip reading it only when no enqueue came since and that time has not come.
        self._enqueues = 0
        self._read_at_enqueue = 0
        self._quiet_since_enqueue: int | None = None
        self._next_due: datetime | None = None
        # Replicas: another one's claim may be taken after this worker last looked, and
        # nothing here wakes when that replica dies; looking again within a lease finds
        # the claim and sleeps until it ends, so its actions are taken over then.
        self._look_within = None if lease is None else lease.total_seconds()
        # detached steps in flight, by their destination (see StepPerformer.detached)
        self._detached: dict[object, asyncio.Task[int]] = {}

    def wake(self) -> None:
        """Something was queued: the next pass reads the due index."""
        self._enqueues += 1
        self._wake.set()

    def hand_over(self, channel: ChannelSettings, revealed: Revealed) -> None:
        """Actions a round's reveal just queued, with the round and channel the caller
        has: the next pass performs them first, without reading them back (a reveal's
        latency is mostly its round trips to the store). A pass running now may read and
        perform them too; the handed copy then finds them done, or put off, since the
        store begins an attempt only on an action still pending and due."""
        if revealed.pending:
            round_ = revealed.round
            self._handed[round_.id] = (round_, channel, list(revealed.pending))
            self._wake.set()
        else:
            self.wake()

    async def run(self, stopping: asyncio.Event, idle_seconds: float = IDLE_SECONDS) -> None:
        """Perform due actions until ``stopping`` is set.

        Between passes it sleeps until the next action falls due, or until
        :meth:`wake` (every enqueue calls it); ``idle_seconds`` bounds the sleep.
        """
        while not stopping.is_set():
            self._wake.clear()
            try:
                delay = await self.run_once(idle_seconds)
            except Exception:
                log.exception("outbox pass failed; retrying")
                delay = RETRY_PASS_SECONDS
            if delay <= 0:
                await asyncio.sleep(0)  # let the tasks that queue work run between passes
                continue
            waiters = [asyncio.create_task(self._wake.wait()), asyncio.create_task(stopping.wait())]
            _, pending = await asyncio.wait(
                waiters, timeout=delay, return_when=asyncio.FIRST_COMPLETED
            )
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)

    async def run_once(self, idle_seconds: float = IDLE_SECONDS) -> float:
        """One pass; returns the seconds until the next is due (0: at once), at most
        ``idle_seconds`` (and at most a lease on a store whose claims have one)."""
        if self._look_within is not None:
            idle_seconds = min(idle_seconds, self._look_within)
        # Completing handed-over actions asks for no pass of its own: the same pass read
        # the due index after them (or knew it had nothing), and an enqueue wakes the
        # worker anyway.
        passed = await self._pass()
        if passed.from_due_index or passed.saturated:
            self._quiet_since_enqueue = None
            return 0.0
        now = self._clock.now()
        if passed.looked:
            # Due actions left now are waiting for a prerequisite, which is itself pending
            # with a later time (or gave up): the next time after now is when work resumes.
            self._next_due = await self._outbox.next_due_after(
                now, platforms=self._platforms.keys()
            )
            self._quiet_since_enqueue = self._read_at_enqueue
        if self._next_due is None:
            return idle_seconds
        return min(max((self._next_due - now).total_seconds(), 0.0), idle_seconds)

    async def run_due(self) -> int:
        """One pass over every due action; returns how many were completed."""
        passed = await self._pass()
        return passed.handed + passed.from_due_index

    async def _pass(self) -> PassResult:
        async with self._pass_lock:
            limit = asyncio.Semaphore(self._send_slots())
            handed, self._handed = self._handed, {}
            now = self._clock.now()
            runs = [
                (due, (round_, channel))
                for round_, channel, actions in handed.values()
                if (due := _handed_due(actions, now, self._is_timed))
            ]
            handed_done = await self._run_rounds(
                [self._run_round(due, known) for due, known in runs], limit
            )
            if handed and handed_done == sum(len(due) for due, _ in runs) and self._still_quiet():
                return PassResult(handed_done, 0, saturated=False, looked=False)
            self._quiet_since_enqueue = None
            self._read_at_enqueue = self._enqueues
            pass_limit = self._pass_limit()
            due = await self._outbox.due_actions(
                self._clock.now(), limit=pass_limit, platforms=self._platforms.keys()
            )
            # A round's actions go in order, and so do the direct actions to one DM channel.
            by_round: dict[object, list[OutboxAction]] = {}
            detached: dict[object, list[OutboxAction]] = {}
            for action in due:
                groups = detached if self._is_detached(action) else by_round
                groups.setdefault(_group_of(action), []).append(action)
                if action.round_id is not None:
                    # A reveal handed over during this pass: this read has its actions.
                    self._handed.pop(action.round_id, None)
            self._detach(detached)
            # The outline of a round the next question closed goes out before that
            # question (both come due at once): rounds' replies in threads first, then new
            # questions, and with them the direct messages, which no round waits for (a
            # question waited for every notice and reminder of its pass before).
            replies: list[list[OutboxAction]] = []
            rest: list[list[OutboxAction]] = []
            for group in by_round.values():
                first = group[0]
                in_thread = first.round_id is not None and first.kind is not ActionKind.QUESTION
                (replies if in_thread else rest).append(group)
            rest.sort(key=lambda g: g[0].round_id is None)  # questions take the slots first
            completed = 0
            for phase in (replies, rest):
                if phase:
                    completed += await self._run_rounds(
                        [self._run_round(actions) for actions in phase], limit
                    )
            return PassResult(handed_done, completed, saturated=len(due) == pass_limit)

    async def _run_rounds(self, rounds: list[Awaitable[int]], limit: asyncio.Semaphore) -> int:
        """Run each round's actions within the send slots; how many were completed."""

        async def in_a_slot(run: Awaitable[int]) -> int:
            async with limit:
                return await run

        # Wait for every round even when one fails: returning early would let the
        # next pass send actions whose first send is still in flight.
        results = await asyncio.gather(*(in_a_slot(r) for r in rounds), return_exceptions=True)
        completed = 0
        for result in results:
            if isinstance(result, int):
                completed += result
            elif isinstance(result, Exception):
                log.error("outbox round failed; it is retried", exc_info=result)
            else:
                raise result  # a BaseException such as cancellation: not ours to swallow
        return completed

    def _is_detached(self, action: OutboxAction) -> bool:
        step = self.performers.step(action.kind) if action.round_id is None else None
        return step is not None and step.detached

    def _detach(self, groups: dict[object, list[OutboxAction]]) -> None:
        """Start each group of detached steps whose destination has none in flight."""
        for group, actions in groups.items():
            running = self._detached.get(group)
            if running is None or running.done():
                task = asyncio.create_task(self._direct.run(actions), name="outbox-detached")
                task.add_done_callback(self._detached_done)
                self._detached[group] = task

    def _detached_done(self, task: asyncio.Task[int]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("a detached outbox step failed; it is retried", exc_info=task.exception())
        self._wake.set()  # what it queued (a card) is due now

    async def finish_detached(self) -> int:
        """Wait for the detached steps in flight (tests, a console's settling); how many
        actions they completed."""
        results = await asyncio.gather(*self._detached.values(), return_exceptions=True)
        self._detached = {g: t for g, t in self._detached.items() if not t.done()}
        return sum(result for result in results if isinstance(result, int))

    async def stop_detached(self) -> None:
        """Stop the detached steps in flight: each stays pending, tried again at the next
        start (an attempt begun counts, as a send that died would)."""
        for task in self._detached.values():
            task.cancel()
        await asyncio.gather(*self._detached.values(), return_exceptions=True)
        self._detached = {}

    def _send_slots(self) -> int:
        """Rounds sent at once: the configured number, or more when a platform that paces
        itself needs more in flight to keep its budget in use (Discord: 45 requests a
        second of 300 ms each are 14 in flight, where 8 slots gave 25 a second)."""
        asked = (p.send_slots for p in self._platforms.values() if isinstance(p, SendSlots))
        return max([self._config.send_concurrency, *asked])

    def _still_quiet(self) -> bool:
        """Whether the due index can hold nothing due now but what this pass performed:
        nothing was queued since the last look, no time it named has come, and no other
        replica shares the store (its leases run out on a clock of their own)."""
        if self._quiet_since_enqueue != self._enqueues or self._config.replicas_share_store:
            return False
        return self._next_due is None or self._clock.now() < self._next_due

    def _pass_limit(self) -> int:
        if self._config.replicas_share_store:
            return self._config.send_concurrency * SHARED_PASS_PER_SLOT
        return PASS_LIMIT

    async def _run_round(
        self,
        actions: list[OutboxAction],
        known: tuple[Round, ChannelSettings] | None = None,
    ) -> int:
        if actions[0].round_id is None:
            return await self._direct.run(actions)
        return await self._rounds.run(actions, known)

    def _is_timed(self, action: OutboxAction) -> bool:
        """Whether the action is a timed step (its performer decides when it is due)."""
        performer = self.performers.of_round(action.kind)
        return performer is not None and performer.due_again is not None


def _handed_due(
    actions: list[OutboxAction], now: datetime, is_timed: Callable[[OutboxAction], bool]
) -> list[OutboxAction]:
    """A round's handed-over actions due now, oldest first, up to a retry still waiting out
    its backoff (it holds the round's later actions). A timed step due later (the last
    call, the reveal-after time: queued with the question, so before the outline a reveal
    queues) holds nothing back."""
    due = []
    for action in actions:
        if action.next_attempt_at <= now:
            due.append(action)
        elif not is_timed(action):
            break
    return due


def _group_of(action: OutboxAction) -> object:
    """What an action is performed in order with: its round, or its DM channel."""
    if action.round_id is not None or action.destination is None:
        return action.round_id
    return (
        action.destination.platform,
        action.destination.workspace,
        action.destination.channel_id,
    )
