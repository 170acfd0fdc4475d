"""How the outbox posts a blind round's waiting answers: before its outline, or alone for
a round closed before its reveal (``ActionKind.BLIND_ANSWERS``)."""

from __future__ import annotations

from bot.blind.posts import blind_answer_card, post_key
from bot.kernel.models import ActionKind
from bot.kernel.refs import ThreadRef
from bot.outbox.performers import Prerequisite, RoundPerformer, RoundStep
from bot.rounds.performers import known
from bot.rounds.store import AnswerStore


class BlindAnswerPosts:
    """Posts the round's blind answers still waiting, each once."""

    def __init__(self, answers: AnswerStore, vote_emoji: str) -> None:
        self._answers = answers
        self._vote_emoji = vote_emoji

    def performer(self) -> RoundPerformer:
        return RoundPerformer(
            ActionKind.BLIND_ANSWERS, self._alone, after=Prerequisite.THREAD, paced=True
        )

    async def _alone(self, step: RoundStep) -> str | None:
        """A round closed before its reveal: its answers, without an outline."""
        await self.post_waiting(step, ThreadRef(step.channel.ref, known(step.round.thread)))
        return None

    async def post_waiting(self, step: RoundStep, thread: ThreadRef) -> None:
        """Before the outline (or alone, for a round closed before its reveal): the round's
        blind answers still waiting, oldest first, each posted once (the outline is a card
        in several parts, its answers first).

        Each post is recorded on its answer before the next is sent (see bot.blind.posts),
        so a retry starts at the first answer not recorded; after a crash between sending
        and recording (a retried action), that answer's key is looked up before it is sent."""
        for answer in await self._answers.waiting_blind_answers(step.round.id):
            key = post_key(step.round.id, answer.id)
            sent = None
            if step.action.attempts > 1:
                sent = await step.find_sent(key, thread)
            if sent is None:
                card = blind_answer_card(answer, self._vote_emoji)
                sent = await step.platform.reply(thread, card, key=key)
            await self._answers.answer_posted(answer.id, answer.message_id, sent.message_id)
