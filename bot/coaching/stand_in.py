"""The coach standing in for a member who never grades (issue #37, item 2).

A member "never grades" an answer when, at the moment the coach's card of it is due (the
round's outline is out to them), they have not graded the round: neither their own grade nor
their reviewers' stands. Then, while the coach meets the stand-in rule in the channel
(:mod:`bot.coach.agreement`, measured against teammates' review ticks), the grade the
coach's verified ticks propose enters the memory model as one more grade, labelled as the
coach's (:attr:`GradeSource.COACH`). It ranks below both: a review later replaces it, the
member's own grade (their Accept or Edit on the card included) replaces it, and it never
replaces either. It touches no points: only ticks someone accepted add quality points."""

from __future__ import annotations

import logging

from bot.coach.agreement import agreement
from bot.coaching.store import AssessmentState, CoachStore, StoredAssessment
from bot.kernel.clock import Clock
from bot.kernel.models import ChannelSettings, Round
from bot.learning.service import LearningService, NotRevealed, RoundToGrade
from bot.learning.store import GradeSource, OwnGradeKept
from bot.reviews.rubric import grade_from_coverage

log = logging.getLogger(__name__)

# a reading whose ticks are the coach's as verified, not yet decided on by the member
_STANDS_IN = frozenset({AssessmentState.READY, AssessmentState.SHOWN})


class CoachStandIn:
    def __init__(self, coach: CoachStore, learning: LearningService, clock: Clock) -> None:
        self._coach = coach
        self._learning = learning
        self._clock = clock

    async def card_due(
        self, stored: StoredAssessment, round_: Round, channel: ChannelSettings
    ) -> bool:
        """The coach's card of ``stored`` is due: grade the member's card from its ticks when
        the coach is still on in ``channel``, the rule is met there and the round has no
        grade of theirs or their reviewers'. True when the coach's grade was recorded."""
        if stored.state not in _STANDS_IN or not stored.key_points or not channel.coach:
            return False
        measured = agreement(await self._coach.judged_by_both(round_.channel_id))
        if not measured.meets_the_stand_in_rule:
            return False
        points = tuple(sorted({tick.point for tick in stored.ticks}))
        target = RoundToGrade(
            round_.id, round_.channel_id, round_.question_id, round_.revealed_at is not None
        )
        try:
            await self._learning.grade_round(
                target,
                stored.member_id,
                grade_from_coverage(len(points), stored.key_points),
                self._clock.now(),
                covered=points,
                source=GradeSource.COACH,
            )
        except (OwnGradeKept, NotRevealed):
            log.debug("round %d: a grade of a higher rank stands", round_.id)
            return False
        return True
