"""The coach in private practice: a session's answer to its question is read beside the loop
like a channel's first answer (an outbox action, the cache, the budgets, the endpoint's
deadline and retries, "the coach is unavailable"), and its card follows the session's
outline, never before it.

Practice belongs to no channel: the coach reads a member's practice when their workspace
has any channel with the coach on and they have not opted out (``/quiz coach off``). The
answer's text is kept with the reading (practice stores it nowhere else), erased with the
member and in their export. The card proposes a grade: the member accepts it, edits its
ticks or dismisses it (``practice_decisions``), or grades with the outline's buttons as
always (a practice grade is their own, never a channel's points).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from bot.coach.budget import resets_at
from bot.coach.cache_key import coach_cache_key
from bot.coach.probe import ask_probe
from bot.coaching.asking import ask_the_coach, budget_spent, cached_reading
from bot.coaching.cards import over_budget_card, practice_card, unavailable_card
from bot.coaching.metrics import CoachMetrics
from bot.coaching.practice_decisions import practice_value
from bot.coaching.practice_store import (
    PracticeAnswer,
    PracticeReading,
    ReadingOutcome,
    ReadingState,
)
from bot.coaching.question_for import QuestionFor
from bot.coaching.setup import CoachSetup, model_tag
from bot.coaching.store import CoachStore
from bot.kernel.clock import Clock
from bot.kernel.models import ActionKind, OutboxAction, OutboxDraft, direct_draft
from bot.kernel.outbox_queue import OutboxQueue
from bot.kernel.platform import Platform
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card
from bot.practice.keys import outline_key
from questions.pack import Question

log = logging.getLogger(__name__)

PRACTICE_PREFIX = "coach:practice:"
_CARD_STEP = "after-outline"


class PracticeOutlineNotOut(Exception):
    """The session's outline is queued but not posted yet: the card waits for it."""


def reading_key(reading_id: int, model: str) -> str:
    """The outbox key of the reading of one practice answer with one model."""
    return f"{PRACTICE_PREFIX}{reading_id}:{model_tag(model)}"


def card_step_key(reading_id: int, model: str) -> str:
    """The step that offers the card once the session's outline is posted."""
    return f"{reading_key(reading_id, model)}:{_CARD_STEP}"


def is_practice_key(key: str) -> bool:
    return key.startswith(PRACTICE_PREFIX)


def _reading_of_key(key: str) -> tuple[int, bool] | None:
    """The reading a key names, and whether it is the card's step."""
    parts = key.removeprefix(PRACTICE_PREFIX).split(":")
    if len(parts) not in (2, 3) or not parts[0].isdecimal():
        return None
    if len(parts) == 3 and parts[2] != _CARD_STEP:
        return None
    return int(parts[0][:15]), len(parts) == 3


class PracticeCoach:
    """Reads practice answers (``bot.practice.coach_hook.PracticeCoach``) and performs the
    readings' outbox actions."""

    def __init__(
        self,
        *,
        setup: CoachSetup | None,
        coach: CoachStore,
        outbox: OutboxQueue,
        question_for: QuestionFor,
        clock: Clock,
        metrics: CoachMetrics,
    ) -> None:
        self._setup = setup
        self._coach = coach
        self._outbox = outbox
        self._question_for = question_for
        self._clock = clock
        self._metrics = metrics

    # on the answer's path: keep the text and queue, nothing more

    async def answered(self, session_id: int, member_id: int, text: str) -> None:
        setup = self._setup
        if setup is None or not text.strip():
            return
        try:
            if await self._coach.refuses_coach(member_id):
                return
            if not await self._coach.coach_on_for(member_id):
                return
            model = setup.endpoint.model
            answer = PracticeAnswer(session_id, member_id, model, text, self._clock.now())
            reading_id = await self._coach.queue_practice_reading(answer)
            if reading_id is None:
                return  # kept already: a redelivered answer
            reading = await self._coach.practice_reading(reading_id)
            if reading is not None:
                key = reading_key(reading_id, model)
                await self._outbox.queue(
                    [OutboxDraft(None, ActionKind.COACH, key, destination=reading.direct)]
                )
        except Exception:
            log.exception("the coach's reading of a practice answer could not be queued")

    async def outline_queued(self, session_id: int) -> None:
        setup = self._setup
        if setup is None:
            return
        try:
            reading = await self._coach.practice_reading_of_session(
                session_id, setup.endpoint.model
            )
            if reading is None or reading.state is not ReadingState.READY:
                return  # none, or still being read: its reading offers the card
            # after the outline in the member's direct messages, which go in order
            key = card_step_key(reading.id, reading.model)
            await self._outbox.queue(
                [OutboxDraft(None, ActionKind.COACH_PRACTICE_CARD, key, destination=reading.direct)]
            )
        except Exception:
            log.exception("the coach's practice card could not be queued")

    # the outbox's actions

    async def perform(self, platform: Platform, action: OutboxAction) -> None:
        named = _reading_of_key(action.key)
        setup = self._setup
        if named is None or setup is None:
            return
        reading_id, card_step = named
        reading = await self._coach.practice_reading(reading_id)
        if reading is None:
            return  # erased since
        if card_step:
            if reading.state is not ReadingState.READY:
                return
            if not await self._outline_out(reading):  # its post waits for a retry
                raise PracticeOutlineNotOut(f"practice session {reading.session_id}")
            await self._offer(reading)
            return
        if reading.state is ReadingState.PENDING:
            read = await self._read(action, setup, reading)
            if read is None:
                return
            reading = read
            if reading.state is ReadingState.READY:
                await self._probe(setup, reading)
        # the outline may have been posted while the model was reading; if not, the step
        # queued with the outline offers the card
        if reading.state is ReadingState.READY and await self._outline_out(reading):
            await self._offer(reading)

    async def _read(
        self, action: OutboxAction, setup: CoachSetup, reading: PracticeReading
    ) -> PracticeReading | None:
        if await self._coach.refuses_coach(reading.member_id):
            return None
        question = self._question(reading.direct, reading.question_id)
        if question is None or not question.key_points:
            return None
        points = tuple(question.key_points)
        model = setup.endpoint.model
        now = self._clock.now()
        cache_key = coach_cache_key(question.question, points, reading.text, model=model)
        cached = await cached_reading(self._coach, self._metrics, cache_key)
        if cached is not None:
            outcome = ReadingOutcome(
                ReadingState.READY, now, cache_key, len(points), cached[0], cached[1]
            )
            return await self._record(reading, outcome)
        spent = await self._budget_spent(setup, reading, now)
        if spent is not None:
            self._metrics.coach_request("over_budget")
            await self._record(reading, ReadingOutcome(ReadingState.OVER_BUDGET, now))
            await self._tell(reading, over_budget_card(spent, resets_at(now), now), "budget")
            return None
        result = await ask_the_coach(
            setup,
            self._metrics,
            question=question.question,
            key_points=points,
            answer=reading.text,
            answered_at=reading.answered_at,
            now=now,
            attempts=action.attempts,
            what="a practice answer",
        )
        if result is None:
            await self._unavailable(reading)
            return None
        verification = result.verification
        outcome = ReadingOutcome(
            ReadingState.READY,
            now,
            cache_key,
            len(points),
            verification.ticks,
            len(verification.dropped),
            result.usage.total_tokens,
        )
        return await self._record(reading, outcome, requests=result.requests)

    async def probe(self, session_id: int) -> str | None:
        """The coach's follow-up for the session, if it wrote one in time (a store read: the
        member's answer never waits for the model)."""
        setup = self._setup
        if setup is None:
            return None
        try:
            reading = await self._coach.practice_reading_of_session(
                session_id, setup.endpoint.model
            )
            if reading is None or await self._coach.refuses_probe(reading.member_id):
                return None
            return reading.probe
        except Exception:
            log.exception("the coach's follow-up could not be read")
            return None

    async def _probe(self, setup: CoachSetup, reading: PracticeReading) -> None:
        """Ask the model for the interviewer's probe on the first key point the answer missed
        (by the verified ticks): within the budget and the deadline, or not at all."""
        if await self._coach.refuses_probe(reading.member_id):
            return
        question = self._question(reading.direct, reading.question_id)
        if question is None:
            return
        found = {tick.point for tick in reading.ticks}
        missed = [n for n in range(1, len(question.key_points) + 1) if n not in found]
        if not missed:
            return  # nothing to probe
        now = self._clock.now()
        spent = await self._budget_spent(setup, reading, now)
        left = setup.endpoint.deadline - (now - reading.answered_at).total_seconds()
        if spent is not None or left <= 0:
            return
        try:
            probe = await asyncio.wait_for(
                ask_probe(
                    setup.client,
                    question=question.question,
                    key_point=question.key_points[missed[0] - 1],
                    answer=reading.text,
                ),
                timeout=left,
            )
        except TimeoutError:
            log.warning("the coach's probe took too long; none is asked")
            return
        outcome = "failed" if probe.failed else "answered" if probe.question else "malformed"
        self._metrics.coach_request(outcome)
        self._metrics.coach_tokens(probe.usage.total_tokens)
        await self._coach.record_practice_probe(
            reading.id,
            probe.question,
            tokens=probe.usage.total_tokens,
            requests=probe.requests,
            at=now,
        )

    async def _budget_spent(
        self, setup: CoachSetup, reading: PracticeReading, now: datetime
    ) -> str | None:
        author = reading.author
        return await budget_spent(
            setup,
            self._coach,
            platform=author.platform,
            workspace=author.workspace,
            member_id=reading.member_id,
            now=now,
        )

    async def _record(
        self, reading: PracticeReading, outcome: ReadingOutcome, requests: int = 0
    ) -> PracticeReading | None:
        return await self._coach.record_practice_reading(reading.id, outcome, requests=requests)

    async def _unavailable(self, reading: PracticeReading) -> None:
        await self._record(reading, ReadingOutcome(ReadingState.UNAVAILABLE, self._clock.now()))
        await self._tell(reading, unavailable_card(None, practice=True), "unavailable")

    async def _outline_out(self, reading: PracticeReading) -> bool:
        return await self._coach.action_done(outline_key(reading.session_id))

    async def _offer(self, reading: PracticeReading) -> None:
        question = self._question(reading.direct, reading.question_id)
        if question is None:
            return
        card = practice_card(
            card=practice_value(reading.id),
            key_points=question.key_points,
            ticks=reading.ticks,
            dropped=reading.dropped,
            model=reading.model,
        )
        key = f"coach:practice-card:{reading.id}"
        await self._outbox.queue([direct_draft(reading.direct, card, key)])
        await self._coach.mark_practice_shown(reading.id)

    async def _tell(self, reading: PracticeReading, card: Card, what: str) -> None:
        key = f"{reading_key(reading.id, reading.model)}:{what}"
        await self._outbox.queue([direct_draft(reading.direct, card, key)])

    def _question(self, direct: ChannelRef, question_id: int) -> Question | None:
        return self._question_for(direct, question_id)
