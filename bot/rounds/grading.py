"""A member grades a round: from ``/quiz grade`` or a grade button to the private answer."""

from __future__ import annotations

from bot.kernel.errors import Refused
from bot.kernel.grades import Grade
from bot.kernel.models import ChannelSettings, Round
from bot.kernel.refs import MemberRef
from bot.kernel.render import Response
from bot.learning.service import NotRevealed, RoundToGrade
from bot.rounds import cards
from bot.rounds.engine import QuizEngine


async def grade_round(
    engine: QuizEngine, channel: ChannelSettings, round_: Round, member: MemberRef, grade: Grade
) -> Response:
    """Record the grade (replacing the member's earlier one of the round) and say, to the
    member only, when the question comes back; refused before the reveal."""
    member_id = await engine.store.answers.member_id(member)
    target = RoundToGrade(round_.id, channel.id, round_.question_id, round_.revealed_at is not None)
    try:
        result = await engine.learning.grade_round(target, member_id, grade, engine.clock.now())
    except NotRevealed:
        raise Refused(
            f"Round #{round_.number} is not revealed yet: answer first, then react "
            f"{channel.reveal_emoji} on the question (or press Reveal) and grade your "
            "answer against the outline."
        ) from None
    return Response(
        cards.graded_card(round_.number, grade, result.replaced, result.card.due, channel.timezone)
    )
