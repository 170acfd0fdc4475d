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
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.blind.posts import blind_answer_card, post_key
from bot.kernel.clock import Clock
from bot.kernel.config import QuizConfig
from bot.kernel.errors import ChannelUnavailable, PlatformError
from bot.kernel.log_context import about
from bot.kernel.metrics import Metrics
from bot.kernel.models import (
    ActionKind,
    AnswerMode,
    ChannelSettings,
    OutboxAction,
    OutboxDraft,
    Revealed,
    Round,
    action_key,
)
from bot.kernel.platform import FindsSentSince, PacedSends, Platform, SendSlots, SeparateImages
from bot.kernel.refs import ChannelRef, MessageRef, ThreadRef
from bot.kernel.render import Card
from bot.notices.sender import NoticeSender
from bot.outbox.store import LeasedClaims
from bot.recaps.recap import chart_key
from bot.reviews.cards import best_answer_card
from bot.reviews.store import best_answer_key
from bot.rounds import cards
from bot.rounds.engine import REVEAL_KINDS
from bot.rounds.timed import due_again, last_call_passed, waits_for_the_next_question
from bot.store import Store
from questions.pack import Question

log = logging.getLogger(__name__)

# An action waits for these to be done first (the message or thread it acts on).
NEEDS_QUESTION = frozenset(
    {ActionKind.THREAD, ActionKind.HINT, ActionKind.NOTICE, ActionKind.LAST_CALL}
)
# A round's steps whose time follows the channel's settings as they are when they come due.
TIMED = frozenset({ActionKind.REVEAL_DUE, ActionKind.LAST_CALL})
NEEDS_THREAD = frozenset(
    {ActionKind.FOLLOW_UPS, ActionKind.OUTLINE, ActionKind.BLIND_ANSWERS, ActionKind.BEST_ANSWER}
)
SENDS_MESSAGE = frozenset(
    {ActionKind.QUESTION, ActionKind.FOLLOW_UPS, ActionKind.OUTLINE, ActionKind.BEST_ANSWER}
)
# Actions that post too, but are not one message to look up by the action's own key.
PACED_TOO = frozenset({ActionKind.RECAP, ActionKind.BLIND_ANSWERS})

PASS_LIMIT = 1000  # due actions taken per pass
# Replicas sharing a store: a pass claims only about what its send slots get through well
# within the lease, so the other replicas take the rest instead of idling while one works
# through a batch it claimed whole (and whose lease would run out before its turn came).
SHARED_PASS_PER_SLOT = 4
# With nothing pending the worker still looks once in a while: a safety net only,
# every enqueue wakes it and a retry's time is known.
IDLE_SECONDS = 60.0
RETRY_PASS_SECONDS = 1.0  # after a pass failed (e.g. the database was busy)

ChannelDisabler = Callable[[ChannelSettings, str], Awaitable[None]]
# Performs an outbox step of another feature: a channel's weekly pairing (see
# bot.pairing.weekly), a practice session's clock (see bot.practice.clock).
Step = Callable[[Platform, OutboxAction], Awaitable[None]]
# Builds a recap's card (with its chart) at send time from its outbox key; None: nothing to send.
RecapCard = Callable[[Platform, ChannelSettings, str], Awaitable[Card | None]]


@dataclass(frozen=True, slots=True)
class Sent:
    """An action handed to the platform whose completion is not recorded yet: it is
    recorded with the round's next attempt, in the same store round trip, or on its own
    when no action follows."""

    action_id: int
    result: str | None  # the message or thread it made, if any


@dataclass(frozen=True, slots=True)
class PassResult:
    """Actions one pass completed, handed over and read from the due index, whether
    more were due than one pass takes, and whether it looked at the due index."""

    handed: int
    from_due_index: int
    saturated: bool
    looked: bool = True  # False: nothing could be due but what was handed over


class OutboxWorker:
    """Performs due outbox actions once each through the Platform port, records their
    results, retries failures with backoff and disables channels that are gone."""

    def __init__(
        self,
        *,
        store: Store,
        platforms: Mapping[str, Platform],
        questions: Callable[[ChannelRef, int], Question | None],
        known_question: Callable[[ChannelRef, int], Awaitable[Question | None]],
        clock: Clock,
        config: QuizConfig,
        disable_channel: ChannelDisabler,
        metrics: Metrics,
        recap_card: RecapCard,
        pairing: Step | None = None,
        practice_clock: Step | None = None,
    ) -> None:
        self._store = store
        self._platforms = platforms
        self._questions = questions
        self._known_question = known_question
        self._clock = clock
        self._config = config
        self._disable_channel = disable_channel
        self._metrics = metrics
        self._recap_card = recap_card
        # the outbox steps another feature performs (they queue what they decide)
        self._steps: dict[ActionKind, Step] = {}
        if pairing is not None:
            self._steps[ActionKind.PAIRING] = pairing
        if practice_clock is not None:
            self._steps[ActionKind.PRACTICE_CLOCK] = practice_clock
        self._notices = NoticeSender(
            notices=store.notices, answers=store.answers, outbox=store.outbox, away=store.away
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
        self._look_within = (
            store.outbox_lease.total_seconds() if isinstance(store, LeasedClaims) else None
        )

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
            self._next_due = await self._store.outbox.next_due_after(
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
                if (due := _handed_due(actions, now))
            ]
            handed_done = await self._run_rounds(
                [self._run_round(due, known) for due, known in runs], limit
            )
            if handed and handed_done == sum(len(due) for due, _ in runs) and self._still_quiet():
                return PassResult(handed_done, 0, saturated=False, looked=False)
            self._quiet_since_enqueue = None
            self._read_at_enqueue = self._enqueues
            pass_limit = self._pass_limit()
            due = await self._store.outbox.due_actions(
                self._clock.now(), limit=pass_limit, platforms=self._platforms.keys()
            )
            # A round's actions go in order, and so do the direct actions to one DM channel.
            by_round: dict[object, list[OutboxAction]] = {}
            for action in due:
                by_round.setdefault(_group_of(action), []).append(action)
                if action.round_id is not None:
                    # A reveal handed over during this pass: this read has its actions.
                    self._handed.pop(action.round_id, None)
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
            return await self._run_direct(actions)
        # The round and channel are read once per round, together, not per action (unless
        # the caller knows them): the round's message and thread are known from the
        # actions this loop completes.
        found = known or await self._store.rounds.round_in_channel(actions[0].round_id)
        round_, channel = found if found is not None else (None, None)
        completed = 0
        sent: Sent | None = None
        try:
            for index, action in enumerate(actions):  # oldest first: the question, its thread
                if round_ is None:
                    await self._store.outbox.fail_action(
                        action.id, "round not found", self._clock.now()
                    )
                    continue
                if channel is None or channel.disabled_reason:
                    reason = channel.disabled_reason if channel else "channel not found"
                    await self._store.outbox.fail_action(
                        action.id, f"channel disabled: {reason}", self._clock.now()
                    )
                    continue
                if (action.kind in NEEDS_QUESTION and round_.question_message is None) or (
                    action.kind in NEEDS_THREAD and round_.thread is None
                ):
                    break  # its prerequisite is not done yet; later actions wait too
                if action.kind in TIMED and await self._put_off(action, round_, channel):
                    continue
                wait = self._pacing_wait(action, round_, channel)
                if wait > 0:
                    # Not before the platform's pacing lets a message to the channel start:
                    # put the round's remaining actions off rather than hold a send slot
                    # while the platform sleeps inside the send.
                    now = self._clock.now()
                    until = now + timedelta(seconds=wait)
                    ids = [a.id for a in actions[index:]]
                    await self._store.outbox.postpone_actions(ids, until, at=now)
                    break
                sent, previous = None, sent
                sent = await self._perform(action, round_, channel, previous)
                if sent is None:
                    break
                if action.kind is ActionKind.QUESTION:
                    round_ = dataclasses.replace(round_, question_message=sent.result)
                elif action.kind is ActionKind.THREAD:
                    round_ = dataclasses.replace(round_, thread=sent.result)
                completed += 1
        finally:
            await self._record(sent)  # the last one sent: no attempt follows to record it with
        return completed

    async def _put_off(self, action: OutboxAction, round_: Round, channel: ChannelSettings) -> bool:
        """Put a timed step off when the channel's settings, changed since it was queued,
        make it due later, or when the next question it waits for falls on a skipped day;
        whether it was."""
        skipped = await self._skipped_days(action, round_, channel)
        due = due_again(action.kind, channel, round_, skipped)
        now = self._clock.now()
        if due is None or due <= now:
            return False
        await self._store.outbox.postpone_actions([action.id], due, at=now)
        return True

    async def _skipped_days(
        self, action: OutboxAction, round_: Round, channel: ChannelSettings
    ) -> list[date]:
        """The skipped days that move a timed step (none unless it waits for the next
        scheduled question)."""
        if not waits_for_the_next_question(action.kind, channel):
            return []
        since = round_.created_at.astimezone(ZoneInfo(channel.timezone)).date()
        return await self._store.skipped_days.skipped_days(channel.id, since)

    def _pacing_wait(self, action: OutboxAction, round_: Round, channel: ChannelSettings) -> float:
        """Seconds the platform's per-channel pacing would hold this action's message."""
        platform = self._platforms.get(channel.ref.platform)
        if not isinstance(platform, PacedSends):
            return 0.0
        if action.kind is ActionKind.FOLLOW_UPS:
            question = self._questions(channel.ref, round_.question_id)
            if question is None or not question.follow_ups:
                return 0.0  # nothing is posted
        elif action.kind not in SENDS_MESSAGE and action.kind not in PACED_TOO:
            return 0.0
        return platform.send_delay(channel.ref)

    async def _perform(
        self,
        action: OutboxAction,
        round_: Round,
        channel: ChannelSettings,
        previous: Sent | None,
    ) -> Sent | None:
        """Send the action; what was sent, or None when it was not (kept, retried or
        failed). ``previous`` is the round's last action sent, not recorded as done yet:
        it is, with this action's attempt, in one round trip."""
        platform = self._platforms.get(channel.ref.platform)
        if platform is None:
            await self._record(previous)
            return None  # that platform is not running in this process; keep the action
        question = None
        if action.kind is not ActionKind.RECAP:  # a recap reports a week, not one question
            question = await self._known_question(channel.ref, round_.question_id)
            if question is None:
                await self._record(previous)
                await self._store.outbox.fail_action(
                    action.id, "question no longer in any pack", self._clock.now()
                )
                return None
        now = self._clock.now()
        if previous is None:
            attempt = await self._store.outbox.begin_attempt(action.id, now)
        else:
            attempt = await self._store.outbox.complete_and_begin(
                previous.action_id, previous.result, action.id, now
            )
        if attempt is None:
            # Another replica took it over after this one's claim ran out, or it is
            # settled: it is not ours to send.
            log.debug("outbox action %s is no longer ours to send", action.key)
            return None
        started = time.perf_counter()
        try:
            if question is None:
                result = await self._send_recap(platform, attempt, channel)
            else:
                result = await self._send(platform, attempt, round_, channel, question)
        except ChannelUnavailable as problem:
            self._metrics.platform_error(platform.name, "channel_unavailable")
            log.warning(
                "channel unavailable, disabling it: %s",
                problem,
                extra=about(channel.ref, round_.id),
            )
            await self._disable_channel(channel, str(problem))
            return None
        except Exception as problem:
            await self._retry_later(platform.name, attempt, problem)
            return None
        self._metrics.action_sent(platform.name, action.kind.value, time.perf_counter() - started)
        if action.kind is ActionKind.QUESTION:
            self._metrics.round_posted(platform.name)
        return Sent(attempt.id, result)

    async def _record(self, sent: Sent | None) -> None:
        if sent is not None:
            await self._store.outbox.complete_action(sent.action_id, sent.result, self._clock.now())

    async def _run_direct(self, actions: list[OutboxAction]) -> int:
        """The direct actions to one DM channel, oldest first (a practice question before
        its follow-up), put off like a round's while the platform's pacing would hold them."""
        completed = 0
        for index, action in enumerate(actions):
            platform = self._platforms.get(
                action.destination.platform if action.destination else ""
            )
            if isinstance(platform, PacedSends) and action.destination is not None:
                wait = platform.send_delay(action.destination)
                if wait > 0:
                    now = self._clock.now()
                    until = now + timedelta(seconds=wait)
                    await self._store.outbox.postpone_actions(
                        [a.id for a in actions[index:]], until, at=now
                    )
                    break
            if not await self._perform_direct(action):
                break
            completed += 1
        return completed

    async def _perform_direct(self, action: OutboxAction) -> bool:
        """Post a direct action's stored card to its DM channel; whether it was completed."""
        if action.kind in (ActionKind.PAIRING, ActionKind.PRACTICE_CLOCK):
            return await self._perform_step(action)
        if action.destination is None or action.card is None:
            await self._store.outbox.fail_action(
                action.id, "direct action without a card", self._clock.now()
            )
            return False
        destination = action.destination
        platform = self._platforms.get(destination.platform)
        if platform is None:
            return False  # that platform is not running in this process; keep the action
        attempt = await self._store.outbox.begin_attempt(action.id, self._clock.now())
        if attempt is None:
            return False  # another replica took it over, or it is settled
        started = time.perf_counter()
        try:
            already = (
                await platform.find_sent(destination, attempt.key) if attempt.attempts > 1 else None
            )
            if already is not None:
                log.info("action %s was already sent; recording it", attempt.key)
                result = already.message_id
            else:
                result = (await platform.post(destination, action.card, key=attempt.key)).message_id
        except ChannelUnavailable as problem:  # the member closed the DM or left
            self._metrics.platform_error(platform.name, "channel_unavailable")
            log.warning("direct message %s undeliverable: %s", attempt.key, problem)
            await self._store.outbox.fail_action(action.id, str(problem), self._clock.now())
            return False
        except Exception as problem:
            await self._retry_later(platform.name, attempt, problem)
            return False
        self._metrics.action_sent(platform.name, action.kind.value, time.perf_counter() - started)
        await self._store.outbox.complete_action(attempt.id, result, self._clock.now())
        return True

    async def _perform_step(self, action: OutboxAction) -> bool:
        """A step another feature performs: a channel's weekly pairing (matched, its intros
        and briefs queued; the pairing keeps each step it did, so a retry goes on from
        there) or a timed practice session's clock (what the session needs then, queued)."""
        destination = action.destination
        platform = self._platforms.get(destination.platform if destination else "")
        step = self._steps.get(action.kind)
        if platform is None or step is None:
            return False  # that platform (or feature) is not running in this process
        attempt = await self._store.outbox.begin_attempt(action.id, self._clock.now())
        if attempt is None:
            return False
        try:
            await step(platform, attempt)
        except Exception as problem:
            await self._retry_later(platform.name, attempt, problem)
            return False
        await self._store.outbox.complete_action(attempt.id, None, self._clock.now())
        return True

    async def _find_sent(
        self,
        platform: Platform,
        channel: ChannelSettings,
        key: str,
        thread: ThreadRef | None,
        round_: Round,
    ) -> MessageRef | None:
        if isinstance(platform, FindsSentSince):
            return await platform.find_sent_since(
                channel.ref, key, thread=thread, since=round_.created_at
            )
        return await platform.find_sent(channel.ref, key, thread=thread)

    async def _send(
        self,
        platform: Platform,
        action: OutboxAction,
        round_: Round,
        channel: ChannelSettings,
        question: Question,
    ) -> str | None:
        if action.attempts > 1 and action.kind in SENDS_MESSAGE:
            thread = (
                ThreadRef(channel.ref, round_.thread)
                if action.kind in NEEDS_THREAD and round_.thread
                else None
            )
            already = await self._find_sent(platform, channel, action.key, thread, round_)
            if already is not None:
                log.info("action %s was already sent; recording it", action.key)
                return already.message_id
        key = action.key
        match action.kind:
            case ActionKind.QUESTION:
                blind = channel.answer_mode is AnswerMode.BLIND
                card = cards.question_card(round_, question, channel.reveal_emoji, blind=blind)
                card = dataclasses.replace(card, ping=channel.ping or "")
                return (await platform.post(channel.ref, card, key=key)).message_id
            case ActionKind.THREAD:
                parent = MessageRef(channel.ref, _known(round_.question_message))
                title = cards.thread_title(round_, question)
                return (await platform.open_thread(parent, title, key=key)).thread_id
            case ActionKind.HINT:
                parent = MessageRef(channel.ref, _known(round_.question_message))
                await platform.react(parent, channel.reveal_emoji)
                return None
            case ActionKind.FOLLOW_UPS:
                if not question.follow_ups:
                    return None
                thread = ThreadRef(channel.ref, _known(round_.thread))
                return (
                    await platform.reply(thread, cards.follow_ups_card(question), key=key)
                ).message_id
            case ActionKind.OUTLINE:
                thread = ThreadRef(channel.ref, _known(round_.thread))
                if channel.answer_mode is AnswerMode.BLIND:  # no lookup in a thread channel
                    await self._post_blind_answers(platform, action, round_, channel, thread)
                return (
                    await platform.reply(thread, cards.outline_card(question, round_.id), key=key)
                ).message_id
            case ActionKind.BEST_ANSWER:
                best = await self._best_answer(round_, action.key)
                if best is None:
                    return None  # another marking came since: that one is posted
                thread = ThreadRef(channel.ref, _known(round_.thread))
                return (await platform.reply(thread, best, key=key)).message_id
            case ActionKind.REVEAL_DUE:
                await self._reveal_due(round_, channel)
                return None
            case ActionKind.NOTICE:
                now = self._clock.now()
                if await self._notices.question_posted(platform, round_, channel, question, now):
                    self.wake()
                return None
            case ActionKind.LAST_CALL:
                now = self._clock.now()
                skipped = await self._skipped_days(action, round_, channel)
                if last_call_passed(channel, round_, now, skipped):
                    log.info(
                        "question #%d: its last call's moment passed; none sent", round_.number
                    )
                elif due_again(action.kind, channel, round_, skipped) is not None and (
                    await self._notices.last_call(platform, round_, channel, now)
                ):
                    self.wake()
                return None
            case ActionKind.BLIND_ANSWERS:  # a round closed before its reveal: no outline
                thread = ThreadRef(channel.ref, _known(round_.thread))
                await self._post_blind_answers(platform, action, round_, channel, thread)
                return None
        raise AssertionError(f"unknown action kind {action.kind}")

    async def _best_answer(self, round_: Round, key: str) -> Card | None:
        """The card of the best answer, while the marking the action posts is the latest."""
        best = await self._store.reviews.best_answer(round_.id)
        if best is None or best_answer_key(round_.id, best) != key:
            return None
        answer = await self._store.answers.answer_by_id(best.answer_id)
        return None if answer is None else best_answer_card(answer)

    async def _reveal_due(self, round_: Round, channel: ChannelSettings) -> None:
        """The reveal-after time came: reveal the round unless a member did, the channel
        turned the setting off, or an admin skipped the round (the store refuses that)."""
        if round_.revealed_at is not None or channel.reveal_after_minutes is None:
            return
        drafts = [
            OutboxDraft(round_.id, kind, action_key(round_.id, kind)) for kind in REVEAL_KINDS
        ]
        revealed = await self._store.rounds.reveal_round(round_.id, self._clock.now(), drafts)
        if revealed is not None:
            log.info("round #%d revealed at its reveal-after time", round_.number)
            self.hand_over(channel, revealed)

    async def _post_blind_answers(
        self,
        platform: Platform,
        action: OutboxAction,
        round_: Round,
        channel: ChannelSettings,
        thread: ThreadRef,
    ) -> None:
        """Before the outline (or alone, for a round closed before its reveal): the round's
        blind answers still waiting, oldest first, each posted once (the outline is a card in
        several parts, its answers first).

        Each post is recorded on its answer before the next is sent (see bot.blind.posts),
        so a retry starts at the first answer not recorded; after a crash between sending and
        recording (a retried action), that answer's key is looked up before it is sent."""
        for answer in await self._store.answers.waiting_blind_answers(round_.id):
            key = post_key(round_.id, answer.id)
            sent = None
            if action.attempts > 1:
                sent = await self._find_sent(platform, channel, key, thread, round_)
            if sent is None:
                card = blind_answer_card(answer, self._config.vote_emoji)
                sent = await platform.reply(thread, card, key=key)
            await self._store.answers.answer_posted(answer.id, answer.message_id, sent.message_id)

    async def _send_recap(
        self, platform: Platform, action: OutboxAction, channel: ChannelSettings
    ) -> str | None:
        """The recap's card; where the platform sends a picture apart from its text
        (``SeparateImages``), in two steps: the text, kept as the action's progress, then
        the chart under a key of its own, so a retry goes on where the last one stopped."""
        separate = isinstance(platform, SeparateImages)
        progress = action.result_ref if separate else None  # the text an attempt posted
        text = progress
        if text is None and action.attempts > 1:
            already = await platform.find_sent(channel.ref, action.key)
            if already is not None:
                log.info("action %s was already sent; recording it", action.key)
                if not separate:
                    return already.message_id
                text = already.message_id
        card = await self._recap_card(platform, channel, action.key)
        if card is None:
            log.info("recap %s has nothing to report; not sent", action.key)
            return text
        if not isinstance(platform, SeparateImages) or card.image is None:
            if text is not None:
                return text
            return (await platform.post(channel.ref, card, key=action.key)).message_id
        if text is None:
            words = dataclasses.replace(card, image=None)
            text = (await platform.post(channel.ref, words, key=action.key)).message_id
        if progress is None:
            await self._store.recaps.record_recap_text(action.key, text, self._clock.now())
        chart = chart_key(action.key)
        # Only an attempt that got past the text may have uploaded the chart (a kill
        # between the upload and the action's completion): look for it before uploading.
        if progress is not None and await platform.find_image(channel.ref, card.image, key=chart):
            log.info("the chart of %s was already uploaded; recording it", action.key)
            return text
        if await platform.post_image(channel.ref, card.image, key=chart) is None:
            log.info("the chart of %s was refused; the recap stands without it", action.key)
        return text

    async def _retry_later(self, platform: str, action: OutboxAction, problem: Exception) -> None:
        now = self._clock.now()
        message = f"{type(problem).__name__}: {problem}"
        rate_limited = isinstance(problem, PlatformError) and problem.retry_after is not None
        self._metrics.platform_error(platform, "rate_limited" if rate_limited else "error")
        if action.attempts >= self._config.max_send_attempts:
            self._metrics.platform_error(platform, "gave_up")
            log.error(
                "giving up on %s after %d attempts: %s",
                action.key,
                action.attempts,
                message,
                extra={"platform": platform, "round": action.round_id},
            )
            await self._store.outbox.fail_action(action.id, message, now)
            return
        delay = min(
            self._config.first_retry_seconds * 2 ** (action.attempts - 1),
            self._config.max_retry_seconds,
        )
        if isinstance(problem, PlatformError) and problem.retry_after is not None:
            delay = max(delay, problem.retry_after)
        else:
            log.warning(
                "sending %s failed (attempt %d): %s",
                action.key,
                action.attempts,
                message,
                extra={"platform": platform, "round": action.round_id},
            )
        await self._store.outbox.retry_action(
            action.id, message, now + timedelta(seconds=delay), at=now
        )


def _handed_due(actions: list[OutboxAction], now: datetime) -> list[OutboxAction]:
    """A round's handed-over actions due now, oldest first, up to a retry still waiting out
    its backoff (it holds the round's later actions). A timed step due later (the last
    call, the reveal-after time: queued with the question, so before the outline a reveal
    queues) holds nothing back."""
    due = []
    for action in actions:
        if action.next_attempt_at <= now:
            due.append(action)
        elif action.kind not in TIMED:
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


def _known(value: str | None) -> str:
    if value is None:
        raise AssertionError("prerequisite action result missing")
    return value
