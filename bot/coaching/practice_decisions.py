"""What a member does with the coach's card on a practice answer: **Accept** (the grade its
ticks propose becomes their practice grade, through practice's own grading), **Edit ticks**
(their grade follows the ticks they keep), **Dismiss** (nothing recorded). Once only: a
second press, or one after the member graded with the outline's buttons, is refused.
Practice earns no points: only the memory model hears of the grade."""

from __future__ import annotations

from typing import Protocol

from bot.coaching.cards import dismissed_card
from bot.coaching.practice_store import PracticeReading, ReadingState
from bot.coaching.question_for import QuestionFor
from bot.coaching.store import CoachStore
from bot.kernel.clock import Clock
from bot.kernel.errors import Refused
from bot.kernel.grades import Grade
from bot.kernel.platform import Platform
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.render import Response
from bot.practice.store import PracticeSession
from bot.reviews.rubric import grade_from_coverage
from questions.pack import Question

PRACTICE_CARD_PREFIX = "r"  # "r12" names reading 12 (practice's own buttons carry "p…")
GRADED_ALREADY = (
    "This practice question is graded already (or its session is over): the coach's card"
    " records nothing more."
)


def practice_value(reading_id: int) -> str:
    return f"{PRACTICE_CARD_PREFIX}{reading_id}"


def practice_reading_of(value: str) -> int | None:
    """The reading a practice card's value names; None for a channel card's."""
    value = value.removeprefix("#")
    if not value.startswith(PRACTICE_CARD_PREFIX):
        return None
    digits = value.removeprefix(PRACTICE_CARD_PREFIX)
    if not (digits.isascii() and digits.isdecimal()):
        raise Refused("That card is not the coach's any more.")
    return int(digits[:15])


class PracticeGrading(Protocol):
    """Practice's own grading, as the outline's grade buttons use it."""

    async def waiting_for_grade(self, channel: ChannelRef) -> PracticeSession | None: ...

    async def grade(self, platform: Platform, session: PracticeSession, grade: Grade) -> None: ...


class PracticeDecisions:
    def __init__(
        self,
        *,
        coach: CoachStore,
        practice: PracticeGrading,
        question_for: QuestionFor,
        clock: Clock,
    ) -> None:
        self._coach = coach
        self._practice = practice
        self._question_for = question_for
        self._clock = clock

    async def card(self, member: MemberRef, reading_id: int) -> tuple[PracticeReading, Question]:
        """The shown practice card ``reading_id`` names, refused unless ``member`` wrote its
        answer and it is not decided yet."""
        return await self._card(member, reading_id)

    async def dismiss(self, member: MemberRef, reading_id: int) -> Response:
        reading, _ = await self._card(member, reading_id)
        if not await self._coach.decide_practice_reading(
            reading.id, ReadingState.DISMISSED, self._clock.now()
        ):
            raise Refused(GRADED_ALREADY)
        return Response(dismissed_card())

    async def record(
        self, platform: Platform, member: MemberRef, reading_id: int, points: tuple[int, ...] | None
    ) -> Response | None:
        """Grade the session's question from ``points`` (None: the coach's ticks) through
        practice's own grading, which posts its confirmation; then keep the decision (the
        grade closes the session, so a second one is refused)."""
        reading, question = await self._card(member, reading_id)
        session = await self._practice.waiting_for_grade(reading.direct)
        if session is None or session.id != reading.session_id:
            raise Refused(GRADED_ALREADY)
        proposed = ticked(reading)
        chosen = proposed if points is None else points
        grade = grade_from_coverage(len(chosen), len(question.key_points))
        await self._practice.grade(platform, session, grade)
        as_read = set(chosen) == set(proposed)
        state = ReadingState.ACCEPTED if as_read else ReadingState.EDITED
        await self._coach.decide_practice_reading(reading.id, state, self._clock.now())
        return None

    async def _card(self, member: MemberRef, reading_id: int) -> tuple[PracticeReading, Question]:
        reading = await self._coach.practice_reading(reading_id)
        if reading is None:
            raise Refused("That reading of the coach's is gone (its answer was erased).")
        author = reading.author
        if (author.platform, author.member_id) != (member.platform, member.member_id):
            raise Refused("That card is another member's.")
        if reading.state is not ReadingState.SHOWN:
            raise Refused(GRADED_ALREADY)
        question = self._question_for(reading.direct, reading.question_id)
        if question is None or not question.key_points:
            raise Refused("That practice question is no longer in any pack.")
        return reading, question


def ticked(reading: PracticeReading) -> tuple[int, ...]:
    return tuple(t.point for t in reading.ticks)
