"""The coach beside the loop: a first answer in a channel with the coach on queues one outbox
action (keyed by the answer and the model); the outbox performs it, retried with its backoff
under the endpoint's deadline, and its performer asks the model, verifies, stores, and offers
the author their card once the outline is out to them.

Nothing here runs on the path of a reply: the reply only queues the action. A request is sent
at most once per attempt the outbox makes; an assessment stored already (another replica's,
an earlier attempt's) is never asked for again, and a cached reply (the same answer text, key
points and model) costs no request at all.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from bot.coach.budget import resets_at
from bot.coach.cache_key import coach_cache_key
from bot.coach.verification import VerifiedTick
from bot.coaching.asking import ask_the_coach, budget_spent, cached_reading
from bot.coaching.cards import coach_card, over_budget_card, unavailable_card
from bot.coaching.metrics import CoachMetrics
from bot.coaching.practice_reader import PracticeCoach, is_practice_key
from bot.coaching.question_for import QuestionFor
from bot.coaching.retry import CoachRetry
from bot.coaching.setup import (
    CoachSetup,
    answer_of_key,
    assessment_key,
    card_key,
    notice_key,
)
from bot.coaching.stand_in import CoachStandIn
from bot.coaching.store import (
    AnswerToAssess,
    AssessmentState,
    CoachStore,
    NewAssessment,
    StoredAssessment,
)
from bot.kernel.clock import Clock
from bot.kernel.events import Reply
from bot.kernel.models import (
    ActionKind,
    ChannelSettings,
    OutboxAction,
    OutboxDraft,
    action_key,
    direct_draft,
)
from bot.kernel.outbox_queue import OutboxQueue
from bot.kernel.platform import DirectMessages, Platform
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card
from bot.outbox.performers import RoundPerformer, RoundStep, StepPerformer
from bot.rounds.store import AnswerStore, RoundStore

log = logging.getLogger(__name__)

__all__ = ["CoachAssessor", "CoachRetry", "QuestionFor"]


class OutlineNotOut(Exception):
    """The round's outline waits for its own retry: its cards wait with it, tried again
    after the outbox's backoff (and given up with the outline)."""


class CoachAssessor:
    """Queues the coach's reading of first answers and performs it."""

    def __init__(
        self,
        *,
        setup: CoachSetup | None,
        coach: CoachStore,
        answers: AnswerStore,
        rounds: RoundStore,
        outbox: OutboxQueue,
        question_for: QuestionFor,
        clock: Clock,
        metrics: CoachMetrics,
        stand_in: CoachStandIn | None = None,
    ) -> None:
        self._stand_in = stand_in
        self._setup = setup
        self._coach = coach
        self._answers = answers
        self._rounds = rounds
        self._outbox = outbox
        self._question_for = question_for
        self._clock = clock
        self._metrics = metrics
        self.practice = PracticeCoach(
            setup=setup,
            coach=coach,
            outbox=outbox,
            question_for=question_for,
            clock=clock,
            metrics=metrics,
        )

    def performers(self) -> tuple[StepPerformer, RoundPerformer, StepPerformer]:
        return (
            StepPerformer(ActionKind.COACH, self.perform, detached=True),
            RoundPerformer(ActionKind.COACH_CARDS, self._round_revealed, needs_question=False),
            StepPerformer(ActionKind.COACH_PRACTICE_CARD, self.practice.perform),
        )

    # on the reply's path: queue, nothing more

    async def answered(self, event: Reply, channel: ChannelSettings) -> None:
        """A reply was recorded in ``channel``: queue the coach's reading of it when it is the
        member's first answer, the coach is on here and the member has not opted out. A
        failure is logged, never the reply's."""
        if self._setup is None or not channel.coach or event.edited:
            return
        try:
            answer = await self._answers.answer_by_message_in_channel(
                channel.id, event.message.message_id
            )
            if answer is not None:
                await self._queue(answer.id, answer.member_id, answer.scoring, channel)
        except Exception:
            log.exception("the coach's reading of an answer could not be queued")

    async def blind_answer_recorded(self, answer_id: int, channel: ChannelSettings) -> None:
        """A member's first blind answer was recorded (``/quiz answer``): read it too."""
        if self._setup is None or not channel.coach:
            return
        try:
            answer = await self._answers.answer_by_id(answer_id)
            if answer is not None:
                await self._queue(answer.id, answer.member_id, answer.scoring, channel)
        except Exception:
            log.exception("the coach's reading of a blind answer could not be queued")

    async def _queue(
        self, answer_id: int, member_id: int, first: bool, channel: ChannelSettings
    ) -> None:
        assert self._setup is not None
        if not first or await self._coach.refuses_coach(member_id):
            return
        key = assessment_key(answer_id, self._setup.endpoint.model)
        await self._outbox.queue(
            [OutboxDraft(None, ActionKind.COACH, key, destination=channel.ref)]
        )

    # the outbox's action

    async def perform(self, platform: Platform, action: OutboxAction) -> None:
        """Read one answer (or find it read), and offer its card when the outline is out."""
        if is_practice_key(action.key):
            await self.practice.perform(platform, action)
            return
        answer_id = answer_of_key(action.key)
        setup = self._setup
        if answer_id is None or setup is None:
            return  # the operator removed the coach since: nothing is sent
        answer = await self._coach.answer_to_assess(answer_id)
        if answer is None:
            return  # erased since
        stored = await self._coach.assessment(answer_id, setup.endpoint.model)
        if stored is None:
            stored = await self._assess(platform, action, setup, answer)
            if stored is None:
                return
        # The outline read again: it may have come out while the model was reading. Until it
        # is posted (the round marked revealed is not enough: its post may wait for a retry)
        # the round's COACH_CARDS action, performed after the outline, offers the card.
        if stored.state is AssessmentState.READY and await self._outline_out(answer.round_id):
            await self._offer(platform, stored, answer)

    async def _assess(
        self, platform: Platform, action: OutboxAction, setup: CoachSetup, answer: AnswerToAssess
    ) -> StoredAssessment | None:
        found = await self._rounds.round_in_channel(answer.round_id)
        channel = found[1] if found else None
        if channel is None or not channel.coach:
            return None  # turned off since the answer
        if await self._coach.refuses_coach(answer.member_id):
            return None
        question = self._question_for(channel.ref, answer.question_id)
        if question is None or not question.key_points:
            return None
        points = tuple(question.key_points)
        model = setup.endpoint.model
        now = self._clock.now()
        reading = _Reading(
            answer,
            channel.ref,
            model,
            coach_cache_key(question.question, points, answer.text, model=model),
            len(points),
            now,
        )
        cached = await cached_reading(self._coach, self._metrics, reading.cache_key)
        if cached is not None:
            return await self._record(reading.new(AssessmentState.READY, *cached), channel.ref)
        spent = await budget_spent(
            setup,
            self._coach,
            platform=channel.ref.platform,
            workspace=channel.ref.workspace,
            member_id=answer.member_id,
            now=now,
        )
        if spent is not None:
            self._metrics.coach_request("over_budget")
            await self._record(reading.new(AssessmentState.OVER_BUDGET), channel.ref)
            card = over_budget_card(spent, resets_at(now), now)
            await self._tell(platform, answer, card, notice_key(answer.answer_id, model, "budget"))
            return None
        result = await ask_the_coach(
            setup,
            self._metrics,
            question=question.question,
            key_points=points,
            answer=answer.text,
            answered_at=answer.answered_at,
            now=now,
            attempts=action.attempts,
            what="an answer",
        )
        if result is None:
            await self._unavailable(platform, reading, channel.ref)
            return None
        verification = result.verification
        new = reading.new(
            AssessmentState.READY,
            verification.ticks,
            len(verification.dropped),
            result.usage.total_tokens,
        )
        return await self._record(new, channel.ref, requests=result.requests)

    async def _record(
        self, new: NewAssessment, channel: ChannelRef, requests: int = 0
    ) -> StoredAssessment:
        return await self._coach.record_assessment(
            new, platform=channel.platform, workspace=channel.workspace, requests=requests
        )

    async def _unavailable(
        self, platform: Platform, reading: _Reading, channel: ChannelRef
    ) -> None:
        """Past its retries (or given nonsense): recorded, and the member told; the manual
        forms stay as they are."""
        answer = reading.answer
        await self._record(reading.new(AssessmentState.UNAVAILABLE), channel)
        found = await self._rounds.round_in_channel(answer.round_id)
        number = found[0].number if found else None
        key = notice_key(answer.answer_id, reading.model, "unavailable")
        await self._tell(platform, answer, unavailable_card(number), key)

    async def _outline_out(self, round_id: int) -> bool:
        return await self._coach.outline_out(round_id, action_key(round_id, ActionKind.OUTLINE))

    async def _round_revealed(self, step: RoundStep) -> str | None:
        """The round's outline is out: offer each card that waited for it. Queued after the
        outline, but performed even when the outline's post failed and waits for a retry:
        then this waits too."""
        if not await self._outline_out(step.round.id):
            raise OutlineNotOut(f"the outline of round {step.round.id} is not posted yet")
        for stored in await self._coach.ready_of_round(step.round.id):
            answer = await self._coach.answer_to_assess(stored.answer_id)
            if answer is not None:
                await self._offer(step.platform, stored, answer)
        return None

    async def _offer(
        self, platform: Platform, stored: StoredAssessment, answer: AnswerToAssess
    ) -> None:
        """Queue the member's card (once: its key is the assessment's), then mark it shown."""
        found = await self._rounds.round_in_channel(answer.round_id)
        if found is None or found[1] is None:
            return
        round_, channel = found[0], found[1]
        question = self._question_for(channel.ref, round_.question_id)
        if question is None:
            return
        if self._stand_in is not None:
            await self._stand_in.card_due(stored, round_, channel)
        card = coach_card(
            assessment_id=stored.id,
            number=round_.number,
            key_points=question.key_points,
            ticks=stored.ticks,
            dropped=stored.dropped,
            model=stored.model,
        )
        if await self._tell(platform, answer, card, card_key(stored.id)):
            await self._coach.mark_shown(stored.id)

    async def _tell(self, platform: Platform, answer: AnswerToAssess, card: Card, key: str) -> bool:
        """Queue ``card`` to the author's direct messages under ``key``; False where the
        platform has none."""
        if not isinstance(platform, DirectMessages):
            log.warning("the coach cannot write privately on %s", platform.name)
            return False
        direct = await platform.open_direct(answer.author)
        await self._outbox.queue([direct_draft(direct, card, key)])
        return True


@dataclass(frozen=True, slots=True)
class _Reading:
    """One answer being read: what each of its outcomes is stored with."""

    answer: AnswerToAssess
    channel: ChannelRef
    model: str
    cache_key: str
    key_points: int
    at: datetime

    def new(
        self,
        state: AssessmentState,
        ticks: tuple[VerifiedTick, ...] = (),
        dropped: int = 0,
        tokens: int = 0,
    ) -> NewAssessment:
        return NewAssessment(
            self.answer.answer_id,
            self.answer.member_id,
            self.model,
            self.cache_key,
            self.key_points,
            ticks,
            dropped,
            tokens,
            state,
            self.at,
        )
