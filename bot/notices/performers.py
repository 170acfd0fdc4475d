"""How the outbox performs the notices' steps of a round: telling who asked that the
question is posted (``NOTICE``) and the last call before the outline (``LAST_CALL``)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.kernel.clock import Clock
from bot.kernel.models import ActionKind
from bot.notices.sender import NoticeSender
from bot.outbox.performers import Prerequisite, RoundPerformer, RoundStep
from bot.rounds.timed import due_again, last_call_passed
from bot.rounds.timed_steps import TimedSteps

log = logging.getLogger(__name__)


class NoticePerformers:
    """Queues the members' notices and last calls; wakes the outbox when it queued some."""

    def __init__(
        self, sender: NoticeSender, timed: TimedSteps, clock: Clock, wake: Callable[[], None]
    ) -> None:
        self.sender = sender
        self._timed = timed
        self._clock = clock
        self._wake = wake

    def performers(self) -> tuple[RoundPerformer, ...]:
        return (
            RoundPerformer(ActionKind.NOTICE, self._notice, after=Prerequisite.QUESTION_MESSAGE),
            RoundPerformer(
                ActionKind.LAST_CALL,
                self._last_call,
                after=Prerequisite.QUESTION_MESSAGE,
                due_again=self._timed.due_again,
            ),
        )

    async def _notice(self, step: RoundStep) -> str | None:
        assert step.question is not None
        now = self._clock.now()
        if await self.sender.question_posted(
            step.platform, step.round, step.channel, step.question, now
        ):
            self._wake()
        return None

    async def _last_call(self, step: RoundStep) -> str | None:
        round_, channel = step.round, step.channel
        now = self._clock.now()
        skipped = await self._timed.skipped_days(step.action, round_, channel)
        if last_call_passed(channel, round_, now, skipped):
            log.info("question #%d: its last call's moment passed; none sent", round_.number)
        elif due_again(step.action.kind, channel, round_, skipped) is not None and (
            await self.sender.last_call(step.platform, round_, channel, now)
        ):
            self._wake()
        return None
