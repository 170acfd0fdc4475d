"""A member grades a round: from ``/quiz grade`` or a grade button to the private answer."""

from __future__ import annotations

from bot import cards
from bot.engine import QuizEngine
from bot.errors import Refused
from bot.grades import Grade
from bot.learning import NotRevealed, RoundToGrade
from bot.models import ChannelSettings, Round
from bot.refs import MemberRef
from bot.render import Response


async def grade_round(
    engine: QuizEngine, channel: ChannelSettings, round_: Round, member: MemberRef, grade: Grade
) -> Response:
    """Record the grade (replacing the member's earlier one of the round) and say, to the
    member only, when the question comes back; refused before the reveal."""
    member_id = await engine.store.member_id(member)
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
