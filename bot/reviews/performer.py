"""How the outbox posts a round's best answer in its thread (``ActionKind.BEST_ANSWER``)."""

from __future__ import annotations

from bot.kernel.models import ActionKind, Round
from bot.kernel.refs import ThreadRef
from bot.kernel.render import Card
from bot.outbox.performers import Prerequisite, RoundPerformer, RoundStep
from bot.reviews.cards import best_answer_card
from bot.reviews.store import ReviewStore, best_answer_key
from bot.rounds.performers import known
from bot.rounds.store import AnswerStore


class BestAnswerPost:
    """Posts the best answer, while the marking its action was queued for is the latest."""

    def __init__(self, reviews: ReviewStore, answers: AnswerStore) -> None:
        self._reviews = reviews
        self._answers = answers

    def performer(self) -> RoundPerformer:
        return RoundPerformer(
            ActionKind.BEST_ANSWER,
            self._post,
            after=Prerequisite.THREAD,
            one_message=True,
            paced=True,
        )

    async def _post(self, step: RoundStep) -> str | None:
        best = await self._card(step.round, step.action.key)
        if best is None:
            return None  # another marking came since: that one is posted
        thread = ThreadRef(step.channel.ref, known(step.round.thread))
        return (await step.platform.reply(thread, best, key=step.action.key)).message_id

    async def _card(self, round_: Round, key: str) -> Card | None:
        best = await self._reviews.best_answer(round_.id)
        if best is None or best_answer_key(round_.id, best) != key:
            return None
        answer = await self._answers.answer_by_id(best.answer_id)
        return None if answer is None else best_answer_card(answer)
