"""Direct actions, which belong to no round: a stored card for one member's DM channel (a
practice step, a reminder), or a step a feature performs (a channel's weekly pairing, a
practice session's timer) that queues what it decides."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from datetime import timedelta

from bot.kernel.clock import Clock
from bot.kernel.errors import ChannelUnavailable
from bot.kernel.metrics import Metrics
from bot.kernel.models import ActionKind, OutboxAction
from bot.kernel.platform import PacedSends, Platform
from bot.outbox.performers import Performers
from bot.outbox.retries import Retries
from bot.outbox.store import OutboxStore

log = logging.getLogger("bot.outbox.worker")


class DirectActions:
    """Performs the direct actions to one DM channel, in order."""

    def __init__(
        self,
        *,
        outbox: OutboxStore,
        platforms: Mapping[str, Platform],
        performers: Performers,
        clock: Clock,
        metrics: Metrics,
        retries: Retries,
    ) -> None:
        self._outbox = outbox
        self._platforms = platforms
        self._performers = performers
        self._clock = clock
        self._metrics = metrics
        self._retries = retries

    async def run(self, actions: list[OutboxAction]) -> int:
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
                    await self._outbox.postpone_actions(
                        [a.id for a in actions[index:]], until, at=now
                    )
                    break
            if not await self._perform(action):
                break
            completed += 1
        return completed

    async def _perform(self, action: OutboxAction) -> bool:
        """Post a direct action's stored card to its DM channel; whether it was completed."""
        if action.kind is not ActionKind.DIRECT:
            return await self._perform_step(action)
        if action.destination is None or action.card is None:
            await self._outbox.fail_action(
                action.id, "direct action without a card", self._clock.now()
            )
            return False
        destination = action.destination
        platform = self._platforms.get(destination.platform)
        if platform is None:
            return False  # that platform is not running in this process; keep the action
        attempt = await self._outbox.begin_attempt(action.id, self._clock.now())
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
            await self._outbox.fail_action(action.id, str(problem), self._clock.now())
            return False
        except Exception as problem:
            await self._retries.retry_later(platform.name, attempt, problem)
            return False
        self._metrics.action_sent(platform.name, action.kind.value, time.perf_counter() - started)
        await self._outbox.complete_action(attempt.id, result, self._clock.now())
        return True

    async def _perform_step(self, action: OutboxAction) -> bool:
        """A step another feature performs (its performer keeps each step it did, so a retry
        goes on from there); sends nothing itself."""
        destination = action.destination
        platform = self._platforms.get(destination.platform if destination else "")
        step = self._performers.step(action.kind)
        if platform is None or step is None:
            return False  # that platform (or feature) is not running in this process
        attempt = await self._outbox.begin_attempt(action.id, self._clock.now())
        if attempt is None:
            return False
        try:
            await step.perform(platform, attempt)
        except Exception as problem:
            await self._retries.retry_later(platform.name, attempt, problem)
            return False
        await self._outbox.complete_action(attempt.id, None, self._clock.now())
        return True
