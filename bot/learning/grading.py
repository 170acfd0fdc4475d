"""A member grades a round: from ``/quiz grade`` or a grade button to the private answer."""

from __future__ import annotations

import dataclasses

from bot.kernel.clock import Clock
from bot.kernel.errors import Refused
from bot.kernel.grades import Grade
from bot.kernel.members import MemberIds
from bot.kernel.models import ChannelSettings, Round
from bot.kernel.refs import MemberRef
from bot.kernel.render import Response
from bot.learning._cards import graded_card
from bot.learning.service import LearningService, NotRevealed, RoundToGrade
from bot.learning.store import GradeSource

_STOOD_IN = {GradeSource.REVIEWS: "your reviewers' score", GradeSource.COACH: "the coach's grade"}


class RoundGrading:
    """Records members' grades of channel rounds and tells each when the question returns."""

    def __init__(self, learning: LearningService, members: MemberIds, clock: Clock) -> None:
        self._learning = learning
        self._members = members
        self._clock = clock

    async def grade(
        self,
        channel: ChannelSettings,
        round_: Round,
        member: MemberRef,
        grade: Grade,
        *,
        covered: tuple[int, ...] | None = None,
        why: str = "",
    ) -> Response:
        """Record the grade (replacing the member's earlier one of the round) and say, to the
        member only, when the question comes back; refused before the reveal. ``covered``:
        the key points the member ticked, kept with the grade; ``why``: how the grade was
        proposed from them, said first."""
        member_id = await self._members.member_id(member)
        target = RoundToGrade(
            round_.id, channel.id, round_.question_id, round_.revealed_at is not None
        )
        try:
            result = await self._learning.grade_round(
                target, member_id, grade, self._clock.now(), covered=covered
            )
        except NotRevealed:
            raise Refused(
                f"Question #{round_.number} is not revealed yet: answer first, then react "
                f"{channel.reveal_emoji} on the question (or press Reveal) and grade your "
                "answer against the outline."
            ) from None
        card = graded_card(
            round_.number,
            grade,
            result.replaced,
            result.card.due,
            channel.timezone,
            stood_in=_STOOD_IN.get(result.replaced_source) if result.replaced_source else None,
        )
        if why:
            card = dataclasses.replace(card, body=f"{why}. {card.body}")
        return Response(card)
