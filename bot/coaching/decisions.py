"""What a member does with the coach's card: **Accept** (its ticks become their grade's, and
count for the answer's points), **Edit ticks** (the checklist, ticked as the coach read it:
their grade follows what they tick; the points only the coach's verified ticks they kept),
**Dismiss** (nothing recorded). Nothing of the coach's enters the memory model before one
of the first two."""

from __future__ import annotations

from dataclasses import dataclass

from bot.coaching.assessor import QuestionFor
from bot.coaching.cards import (
    ACCEPT_ACTION,
    DISMISS_ACTION,
    EDIT_ACTION,
    decided_card,
    dismissed_card,
)
from bot.coaching.metrics import CoachMetrics
from bot.coaching.practice_decisions import (
    PracticeDecisions,
    practice_reading_of,
    practice_value,
    ticked,
)
from bot.coaching.store import AssessmentState, CoachStore, StoredAssessment
from bot.kernel.cards import error, info
from bot.kernel.clock import Clock
from bot.kernel.errors import Refused
from bot.kernel.events import ButtonPress, Command, FormSubmit
from bot.kernel.forms import (
    CHOICE_LABEL_LIMIT,
    FieldProblem,
    Form,
    FormField,
    chosen,
    not_chosen,
)
from bot.kernel.models import ChannelSettings, Round
from bot.kernel.platform import Platform
from bot.kernel.refs import MemberRef
from bot.kernel.render import Response
from bot.learning.grading import RoundGrading
from bot.reviews.rubric import grade_from_coverage, why
from bot.rounds.store import RoundStore
from questions.pack import Question

TICKS_FORM = "coach_ticks"
COVERED = "covered"


def _label(point: str) -> str:
    return point if len(point) <= CHOICE_LABEL_LIMIT else point[: CHOICE_LABEL_LIMIT - 1] + "…"


def opens_form(event: Command | ButtonPress) -> bool:
    return isinstance(event, ButtonPress) and event.action == EDIT_ACTION


def ticks_form(assessment: StoredAssessment, round_: Round, question: Question) -> Form:
    return _ticks_form(
        str(assessment.id),
        f"Question #{round_.number}: your key points",
        tuple(t.point for t in assessment.ticks),
        question,
    )


def _ticks_form(target: str, title: str, ticked: tuple[int, ...], question: Question) -> Form:
    return Form(
        kind=TICKS_FORM,
        target=target,
        title=title,
        fields=(
            FormField(
                COVERED,
                "Which key points did your answer cover?",
                required=False,
                value=" ".join(str(point) for point in ticked),
                choices=tuple(_label(p) for p in question.key_points),
                multiple=True,
            ),
        ),
        submit="Record my grade",
    )


class CoachDecisions:
    """The card's buttons and the edit form."""

    def __init__(
        self,
        *,
        coach: CoachStore,
        rounds: RoundStore,
        question_for: QuestionFor,
        grading: RoundGrading,
        clock: Clock,
        metrics: CoachMetrics,
        practice: PracticeDecisions | None = None,
    ) -> None:
        self._practice = practice
        self._coach = coach
        self._rounds = rounds
        self._question_for = question_for
        self._grading = grading
        self._clock = clock
        self._metrics = metrics

    async def on_button(
        self, event: ButtonPress, platform: Platform | None = None
    ) -> Response | None:
        reading_id = practice_reading_of(event.value)
        if reading_id is not None:
            return await self._practice_press(platform, event.member, reading_id, event.action)
        return await self._press(await self._card_of(event.member, event.value), event.action)

    async def typed(
        self,
        member: MemberRef,
        action: str,
        value: str,
        points: str,
        platform: Platform | None = None,
    ) -> Response | None:
        """A card's button typed as ``/quiz coach accept|edit|dismiss CARD [N...]`` (the
        console shows no buttons; a practice card's number starts with r)."""
        if not value:
            raise Refused(
                f"Give the number of the coach's card: `/quiz coach {action} 7` (the card's"
                " footer names it)."
            )
        reading_id = practice_reading_of(value)
        if reading_id is not None:
            if action != "edit":
                act = ACCEPT_ACTION if action == "accept" else DISMISS_ACTION
                return await self._practice_press(platform, member, reading_id, act)
            practice = self._practice_decisions()
            _, question = await practice.card(member, reading_id)
            total = len(question.key_points)
            if not points.strip() or not_chosen(points, total):
                raise Refused(
                    f"Give the key points your answer covered, numbers from 1 to {total}:"
                    f" `/quiz coach edit {value} 1 3`."
                )
            return await practice.record(
                _platform(platform), member, reading_id, chosen(points, total)
            )
        card = await self._card_of(member, value)
        if action != "edit":
            return await self._press(card, ACCEPT_ACTION if action == "accept" else DISMISS_ACTION)
        total = len(card.question.key_points)
        if not points.strip() or not_chosen(points, total):
            raise Refused(
                f"Give the key points your answer covered, numbers from 1 to {total}:"
                f" `/quiz coach edit {value} 1 3`."
            )
        return await self._record(card, chosen(points, total), edited=True)

    async def _press(self, card: _Card, action: str) -> Response:
        if action == ACCEPT_ACTION:
            return await self._record(card, tuple(t.point for t in card.assessment.ticks))
        if action == EDIT_ACTION:
            form = ticks_form(card.assessment, card.round, card.question)
            return Response(info("Tick the key points your answer covered."), form=form)
        if action == DISMISS_ACTION:
            now = self._clock.now()
            await self._coach.decide(card.assessment.id, AssessmentState.DISMISSED, (), now)
            self._metrics.coach_decision("dismissed")
            return Response(dismissed_card())
        raise Refused("That button is not the coach's.")

    async def _practice_press(
        self, platform: Platform | None, member: MemberRef, reading_id: int, action: str
    ) -> Response | None:
        practice = self._practice_decisions()
        if action == ACCEPT_ACTION:
            return await practice.record(_platform(platform), member, reading_id, None)
        if action == EDIT_ACTION:
            reading, question = await practice.card(member, reading_id)
            title = "Your practice answer: your key points"
            form = _ticks_form(practice_value(reading_id), title, ticked(reading), question)
            return Response(info("Tick the key points your answer covered."), form=form)
        if action == DISMISS_ACTION:
            return await practice.dismiss(member, reading_id)
        raise Refused("That button is not the coach's.")

    def _practice_decisions(self) -> PracticeDecisions:
        if self._practice is None:
            raise Refused("The coach's practice cards are not wired here.")
        return self._practice

    async def on_form(
        self, submit: FormSubmit, platform: Platform | None = None
    ) -> Response | None:
        reading_id = practice_reading_of(submit.target)
        if reading_id is not None:
            _, question = await self._practice_decisions().card(submit.member, reading_id)
            total = len(question.key_points)
        else:
            card = await self._card_of(submit.member, submit.target)
            total = len(card.question.key_points)
        value = submit.values.get(COVERED, "")
        wrong = not_chosen(value, total)
        if wrong:
            problem = FieldProblem(
                COVERED, f"Give key points as numbers from 1 to {total}, not {' '.join(wrong)}."
            )
            return Response(error(f"Nothing was recorded: {problem.message}"), problems=(problem,))
        if reading_id is not None:
            return await self._practice_decisions().record(
                _platform(platform), submit.member, reading_id, chosen(value, total)
            )
        return await self._record(card, chosen(value, total), edited=True)

    async def _record(
        self, card: _Card, points: tuple[int, ...], *, edited: bool = False
    ) -> Response:
        """The member's grade from ``points`` (as the checklist records one), and the
        coach's verified ticks among them counted for the answer's points."""
        assessment = card.assessment
        total = assessment.key_points
        grade = grade_from_coverage(len(points), total)
        await self._grading.grade(
            card.channel,
            card.round,
            card.author,
            grade,
            covered=points,
            why=why(len(points), total),
        )
        verified = {t.point for t in assessment.ticks}
        kept = tuple(p for p in points if p in verified)
        as_read = set(points) == verified
        state = AssessmentState.ACCEPTED if as_read else AssessmentState.EDITED
        await self._coach.decide(assessment.id, state, kept, self._clock.now())
        self._metrics.coach_decision("accepted" if as_read else "edited")
        return Response(decided_card(grade, len(points), total, edited=edited and not as_read))

    async def _card_of(self, member: MemberRef, value: str) -> _Card:
        """The card ``value`` names, refused unless ``member`` is its answer's author (by
        their platform id: a press in direct messages may name no workspace)."""
        value = value.removeprefix("#")
        if not (value.isascii() and value.isdecimal()):
            raise Refused("That card is not the coach's any more.")
        assessment = await self._coach.assessment_by_id(int(value[:15]))
        answer = (
            None if assessment is None else await self._coach.answer_to_assess(assessment.answer_id)
        )
        if assessment is None or answer is None:
            raise Refused("That reading of the coach's is gone (its answer was erased).")
        author = answer.author
        if (author.platform, author.member_id) != (member.platform, member.member_id):
            raise Refused("That card is another member's.")
        if assessment.state in (AssessmentState.UNAVAILABLE, AssessmentState.OVER_BUDGET):
            raise Refused("The coach did not read that answer.")
        found = await self._rounds.round_in_channel(answer.round_id)
        if found is None or found[1] is None:
            raise Refused("That question's channel has no quiz any more.")
        round_, channel = found[0], found[1]
        question = self._question_for(channel.ref, round_.question_id)
        if question is None or not question.key_points:
            raise Refused(f"Question #{round_.number} is no longer in any pack.")
        return _Card(assessment, round_, channel, question, author)


def _platform(platform: Platform | None) -> Platform:
    if platform is None:
        raise Refused("Grade this practice question with the outline's buttons here.")
    return platform


@dataclass(frozen=True, slots=True)
class _Card:
    """A card pressed: its assessment, round, channel, question, and its answer's author as
    the store knows them."""

    assessment: StoredAssessment
    round: Round
    channel: ChannelSettings
    question: Question
    author: MemberRef
