"""How the outbox performs a round's own actions: the question, its thread, the reveal
hint, the follow-ups, the outline and the reveal-after step."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable

from bot.kernel.clock import Clock
from bot.kernel.models import (
    ActionKind,
    AnswerMode,
    ChannelSettings,
    OutboxDraft,
    Revealed,
    Round,
    action_key,
)
from bot.kernel.refs import ChannelRef, MessageRef, ThreadRef
from bot.outbox.performers import Prerequisite, RoundPerformer, RoundStep
from bot.rounds import cards
from bot.rounds.engine import reveal_kinds
from bot.rounds.store import RoundStore
from bot.rounds.timed_steps import TimedSteps
from questions.pack import Question

log = logging.getLogger(__name__)

# Posts what must come before a blind round's outline, in its thread (see bot.blind.posts).
BeforeOutline = Callable[[RoundStep, ThreadRef], Awaitable[None]]
HandOver = Callable[[ChannelSettings, Revealed], None]


class RoundPerformers:
    """The performers of a round's actions."""

    def __init__(
        self,
        *,
        rounds: RoundStore,
        question_for: Callable[[ChannelRef, int], Question | None],
        timed: TimedSteps,
        clock: Clock,
        hand_over: HandOver,
        before_outline: BeforeOutline | None = None,
    ) -> None:
        self._rounds = rounds
        self._question_for = question_for
        self._timed = timed
        self._clock = clock
        self._hand_over = hand_over
        self._before_outline = before_outline

    def performers(self) -> tuple[RoundPerformer, ...]:
        return (
            RoundPerformer(ActionKind.QUESTION, self._question, one_message=True, paced=True),
            RoundPerformer(ActionKind.THREAD, self._thread, after=Prerequisite.QUESTION_MESSAGE),
            RoundPerformer(ActionKind.HINT, self._hint, after=Prerequisite.QUESTION_MESSAGE),
            RoundPerformer(
                ActionKind.FOLLOW_UPS,
                self._follow_ups,
                after=Prerequisite.THREAD,
                one_message=True,
                paced=True,
                posts=self._has_follow_ups,
            ),
            RoundPerformer(
                ActionKind.OUTLINE,
                self._outline,
                after=Prerequisite.THREAD,
                one_message=True,
                paced=True,
            ),
            RoundPerformer(
                ActionKind.REVEAL_DUE, self._reveal_due, due_again=self._timed.due_again
            ),
        )

    async def _question(self, step: RoundStep) -> str | None:
        round_, channel = step.round, step.channel
        blind = channel.answer_mode is AnswerMode.BLIND
        card = cards.question_card(round_, _asked(step), channel.reveal_emoji, blind=blind)
        card = dataclasses.replace(card, ping=channel.ping or "")
        return (await step.platform.post(channel.ref, card, key=step.action.key)).message_id

    async def _thread(self, step: RoundStep) -> str | None:
        parent = MessageRef(step.channel.ref, known(step.round.question_message))
        title = cards.thread_title(step.round, _asked(step))
        return (await step.platform.open_thread(parent, title, key=step.action.key)).thread_id

    async def _hint(self, step: RoundStep) -> str | None:
        parent = MessageRef(step.channel.ref, known(step.round.question_message))
        await step.platform.react(parent, step.channel.reveal_emoji)
        return None

    async def _follow_ups(self, step: RoundStep) -> str | None:
        question = _asked(step)
        if not question.follow_ups:
            return None
        thread = ThreadRef(step.channel.ref, known(step.round.thread))
        card = cards.follow_ups_card(question)
        return (await step.platform.reply(thread, card, key=step.action.key)).message_id

    def _has_follow_ups(self, channel: ChannelRef, round_: Round) -> bool:
        question = self._question_for(channel, round_.question_id)
        return question is not None and bool(question.follow_ups)

    async def _outline(self, step: RoundStep) -> str | None:
        thread = ThreadRef(step.channel.ref, known(step.round.thread))
        blind = step.channel.answer_mode is AnswerMode.BLIND
        if blind and self._before_outline is not None:  # no lookup in a thread channel
            await self._before_outline(step, thread)
        card = cards.outline_card(_asked(step), step.round.id)
        return (await step.platform.reply(thread, card, key=step.action.key)).message_id

    async def _reveal_due(self, step: RoundStep) -> str | None:
        """The reveal-after time came: reveal the round unless a member did, the channel
        turned the setting off, or an admin skipped the round (the store refuses that)."""
        round_, channel = step.round, step.channel
        if round_.revealed_at is not None or channel.reveal_after_minutes is None:
            return None
        drafts = [
            OutboxDraft(round_.id, kind, action_key(round_.id, kind))
            for kind in reveal_kinds(channel)
        ]
        revealed = await self._rounds.reveal_round(round_.id, self._clock.now(), drafts)
        if revealed is not None:
            log.info("round #%d revealed at its reveal-after time", round_.number)
            self._hand_over(channel, revealed)
        return None


def _asked(step: RoundStep) -> Question:
    if step.question is None:
        raise AssertionError("a round's action performed without its question")
    return step.question


def known(value: str | None) -> str:
    """A prerequisite's result (the question's message, the round's thread)."""
    if value is None:
        raise AssertionError("prerequisite action result missing")
    return value
