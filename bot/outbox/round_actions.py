"""A round's actions, performed in order, each after the one it builds on, by the
performer its feature registered for its kind."""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

from bot.kernel.clock import Clock
from bot.kernel.errors import ChannelUnavailable
from bot.kernel.log_context import about
from bot.kernel.metrics import Metrics
from bot.kernel.models import ActionKind, ChannelSettings, OutboxAction, Round
from bot.kernel.platform import FindsSentSince, PacedSends, Platform
from bot.kernel.refs import ChannelRef, MessageRef, ThreadRef
from bot.outbox.performers import Performers, Prerequisite, RoundPerformer, RoundStep
from bot.outbox.retries import Retries
from bot.outbox.store import OutboxStore
from questions.pack import Question

log = logging.getLogger("bot.outbox.worker")

ChannelDisabler = Callable[[ChannelSettings, str], Awaitable[None]]
KnownQuestion = Callable[[ChannelRef, int], Awaitable[Question | None]]


class RoundsOfActions(Protocol):
    """Where the worker reads the round an action belongs to."""

    async def round_in_channel(self, round_id: int) -> tuple[Round, ChannelSettings | None] | None:
        """The round and its channel (None when the channel is gone), read together."""
        ...


@dataclass(frozen=True, slots=True)
class Sent:
    """An action handed to the platform whose completion is not recorded yet: it is
    recorded with the round's next attempt, in the same store round trip, or on its own
    when no action follows."""

    action_id: int
    result: str | None  # the message or thread it made, if any


class RoundActions:
    """Performs a round's due actions, oldest first."""

    def __init__(
        self,
        *,
        outbox: OutboxStore,
        rounds: RoundsOfActions,
        platforms: Mapping[str, Platform],
        performers: Performers,
        known_question: KnownQuestion,
        clock: Clock,
        metrics: Metrics,
        retries: Retries,
        disable_channel: ChannelDisabler,
    ) -> None:
        self._outbox = outbox
        self._rounds = rounds
        self._platforms = platforms
        self._performers = performers
        self._known_question = known_question
        self._clock = clock
        self._metrics = metrics
        self._retries = retries
        self._disable_channel = disable_channel

    async def run(
        self,
        actions: list[OutboxAction],
        known: tuple[Round, ChannelSettings] | None = None,
    ) -> int:
        """Perform them in order; how many were completed."""
        # The round and channel are read once per round, together, not per action (unless
        # the caller knows them): the round's message and thread are known from the
        # actions this loop completes.
        assert actions[0].round_id is not None
        found = known or await self._rounds.round_in_channel(actions[0].round_id)
        round_, channel = found if found is not None else (None, None)
        completed = 0
        sent: Sent | None = None
        try:
            for index, action in enumerate(actions):  # oldest first: the question, its thread
                if round_ is None:
                    await self._outbox.fail_action(action.id, "round not found", self._clock.now())
                    continue
                if channel is None or channel.disabled_reason:
                    reason = channel.disabled_reason if channel else "channel not found"
                    await self._outbox.fail_action(
                        action.id, f"channel disabled: {reason}", self._clock.now()
                    )
                    continue
                performer = self._performers.of_round(action.kind)
                if performer is None:
                    await self._outbox.fail_action(
                        action.id, f"no performer of {action.kind.value} actions", self._clock.now()
                    )
                    continue
                if _waits(performer, round_):
                    break  # its prerequisite is not done yet; later actions wait too
                if performer.due_again is not None and await self._put_off(
                    performer, action, round_, channel
                ):
                    continue
                wait = self._pacing_wait(performer, round_, channel)
                if wait > 0:
                    # Not before the platform's pacing lets a message to the channel start:
                    # put the round's remaining actions off rather than hold a send slot
                    # while the platform sleeps inside the send.
                    now = self._clock.now()
                    until = now + timedelta(seconds=wait)
                    ids = [a.id for a in actions[index:]]
                    await self._outbox.postpone_actions(ids, until, at=now)
                    break
                sent, previous = None, sent
                sent = await self._perform(performer, action, round_, channel, previous)
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

    async def _put_off(
        self,
        performer: RoundPerformer,
        action: OutboxAction,
        round_: Round,
        channel: ChannelSettings,
    ) -> bool:
        """Put a timed step off when the channel's settings, changed since it was queued,
        make it due later, or when the next question it waits for falls on a skipped day;
        whether it was."""
        assert performer.due_again is not None
        due = await performer.due_again(action, round_, channel)
        now = self._clock.now()
        if due is None or due <= now:
            return False
        await self._outbox.postpone_actions([action.id], due, at=now)
        return True

    def _pacing_wait(
        self, performer: RoundPerformer, round_: Round, channel: ChannelSettings
    ) -> float:
        """Seconds the platform's per-channel pacing would hold this action's message."""
        platform = self._platforms.get(channel.ref.platform)
        if not isinstance(platform, PacedSends) or not performer.paced:
            return 0.0
        if performer.posts is not None and not performer.posts(channel.ref, round_):
            return 0.0  # nothing is posted
        return platform.send_delay(channel.ref)

    async def _perform(
        self,
        performer: RoundPerformer,
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
        if performer.needs_question:
            question = await self._known_question(channel.ref, round_.question_id)
            if question is None:
                await self._record(previous)
                await self._outbox.fail_action(
                    action.id, "question no longer in any pack", self._clock.now()
                )
                return None
        now = self._clock.now()
        if previous is None:
            attempt = await self._outbox.begin_attempt(action.id, now)
        else:
            attempt = await self._outbox.complete_and_begin(
                previous.action_id, previous.result, action.id, now
            )
        if attempt is None:
            # Another replica took it over after this one's claim ran out, or it is
            # settled: it is not ours to send.
            log.debug("outbox action %s is no longer ours to send", action.key)
            return None
        started = time.perf_counter()
        step = RoundStep(
            platform, attempt, round_, channel, question, self._finder(platform, channel, round_)
        )
        try:
            result = await self._already_sent(performer, step)
            if result is None:
                result = await performer.perform(step)
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
            await self._retries.retry_later(platform.name, attempt, problem)
            return None
        self._metrics.action_sent(platform.name, action.kind.value, time.perf_counter() - started)
        if action.kind is ActionKind.QUESTION:
            self._metrics.round_posted(platform.name)
        return Sent(attempt.id, result)

    async def _already_sent(self, performer: RoundPerformer, step: RoundStep) -> str | None:
        """The message a retried one-message action already sent, if it did."""
        action, round_ = step.action, step.round
        if action.attempts <= 1 or not performer.one_message:
            return None
        in_thread = performer.after is Prerequisite.THREAD and round_.thread
        thread = ThreadRef(step.channel.ref, round_.thread) if in_thread and round_.thread else None
        already = await step.find_sent(action.key, thread)
        if already is None:
            return None
        log.info("action %s was already sent; recording it", action.key)
        return already.message_id

    @staticmethod
    def _finder(
        platform: Platform, channel: ChannelSettings, round_: Round
    ) -> Callable[[str, ThreadRef | None], Awaitable[MessageRef | None]]:
        async def find_sent(key: str, thread: ThreadRef | None) -> MessageRef | None:
            if isinstance(platform, FindsSentSince):
                return await platform.find_sent_since(
                    channel.ref, key, thread=thread, since=round_.created_at
                )
            return await platform.find_sent(channel.ref, key, thread=thread)

        return find_sent

    async def _record(self, sent: Sent | None) -> None:
        if sent is not None:
            await self._outbox.complete_action(sent.action_id, sent.result, self._clock.now())


def _waits(performer: RoundPerformer, round_: Round) -> bool:
    """Whether the action's prerequisite (the question's message, the thread) is not done."""
    match performer.after:
        case Prerequisite.QUESTION_MESSAGE:
            return round_.question_message is None
        case Prerequisite.THREAD:
            return round_.thread is None
    return False
