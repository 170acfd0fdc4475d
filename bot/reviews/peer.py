"""PeerReviews: grading from the checklist, reviewing each other's answers, the best answer.

All of it works on the channel's latest revealed round of the last 14 days, the one
``/quiz grade`` grades without a number. Answers are numbered as ``/quiz rate`` lists them:
the round's answers in the order they were given (``#1`` is the first).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.kernel.cards import error, info
from bot.kernel.clock import Clock
from bot.kernel.errors import Refused
from bot.kernel.events import ButtonPress, FormSubmit
from bot.kernel.forms import FieldProblem, chosen, not_chosen
from bot.kernel.members import MemberIds
from bot.kernel.models import (
    ActionKind,
    AnswerRecord,
    ChannelSettings,
    OutboxDraft,
    Round,
    direct_draft,
)
from bot.kernel.platform import DirectMessages, Platform
from bot.kernel.quoting import quoted
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.render import Card, Response
from bot.learning.grading import RoundGrading
from bot.learning.service import LearningService, RoundToGrade
from bot.learning.store import GradeSource, OwnGradeKept
from bot.reviews.cards import (
    answers_card,
    calibration,
    reviewed_card,
    reviews_card,
    told_author_card,
)
from bot.reviews.forms import (
    ANSWER,
    CHECKLIST_FORM,
    COMMENT,
    COMMENT_LIMIT,
    COVERED,
    SCORE,
    answer_choices,
    checklist_form,
    review_form,
)
from bot.reviews.rubric import SCORES, grade_from_coverage, grade_of_reviews, why
from bot.reviews.store import (
    BestAnswer,
    ReviewDraft,
    ReviewStore,
    StoredReview,
    TellAuthor,
    best_answer_key,
)
from bot.rounds.cards import CHECKLIST_ACTION, round_id_from
from bot.rounds.store import AnswerStore, RoundStore
from questions.pack import Question

log = logging.getLogger(__name__)

REVIEW_WINDOW = timedelta(days=14)
REVIEW_POINTS = 2
REVIEWS_WITH_POINTS = 3  # per member and round

QuestionOf = Callable[[ChannelRef, int], Question | None]
ChannelOf = Callable[[ChannelRef], Awaitable[ChannelSettings | None]]


class PeerReviews:
    """Members' checklists, reviews and best answers of a channel's revealed rounds."""

    def __init__(
        self,
        *,
        reviews: ReviewStore,
        answers: AnswerStore,
        rounds: RoundStore,
        learning: LearningService,
        grading: RoundGrading,
        members: MemberIds,
        question_of: QuestionOf,
        wake_outbox: Callable[[], None],
        clock: Clock,
        channel_of: ChannelOf,
    ) -> None:
        self._reviews = reviews
        self._answers = answers
        self._rounds = rounds
        self._learning = learning
        self._grading = grading
        self._members = members
        self._question_of = question_of
        self._wake = wake_outbox
        self._clock = clock
        self._channel_of = channel_of

    async def calibration(self, member_id: int) -> str | None:
        """How the member's own grades compare with their reviewers' (``/quiz me``), or
        None before enough of their answers have both."""
        return calibration(await self._reviews.reviewed_answers(member_id))

    async def revealed_round(self, channel: ChannelSettings) -> Round:
        """The round reviews and ticks are about; refused when none was revealed lately."""
        since = self._clock.now() - REVIEW_WINDOW
        round_ = await self._rounds.latest_revealed_round(channel.id, since)
        if round_ is None:
            raise Refused(
                "No question of the last 14 days has its outline out yet: ticks and reviews"
                " come after the reveal."
            )
        return round_

    def _question(self, channel: ChannelSettings, round_: Round) -> Question:
        question = self._question_of(channel.ref, round_.question_id)
        if question is None:
            raise Refused(f"Question #{round_.number} is no longer in any pack.")
        return question

    # the checklist

    async def covered(
        self,
        channel: ChannelSettings,
        member: MemberRef,
        points: tuple[int, ...],
        round_: Round | None = None,
    ) -> Response:
        """Grade the member's answer from the key points they ticked: the share covered
        proposes the grade, recorded with the ticks; another grade changes it, keeping them."""
        round_ = round_ or await self.revealed_round(channel)
        total = len(self._question(channel, round_).key_points)
        if not total:
            raise Refused(
                f"Question #{round_.number} has no key points to tick: grade it with"
                " `/quiz grade missed|partly|good|nailed`."
            )
        wrong = [str(p) for p in points if not 1 <= p <= total]
        if wrong:
            raise Refused(_not_key_points(round_, wrong, total))
        ticked = tuple(sorted(set(points)))
        grade = grade_from_coverage(len(ticked), total)
        response = await self._grading.grade(
            channel, round_, member, grade, covered=ticked, why=why(len(ticked), total)
        )
        footer = "Not right? `/quiz grade WORD` picks another grade; your ticks are kept."
        return Response(
            Card(
                title=response.card.title,
                body=response.card.body,
                footer=footer,
                kind=response.card.kind,
            )
        )

    async def checklist(self, channel: ChannelSettings) -> Response:
        """The checklist form of the latest revealed round."""
        round_ = await self.revealed_round(channel)
        question = self._question(channel, round_)
        if not question.key_points:
            raise Refused(f"Question #{round_.number} has no key points to tick.")
        form = checklist_form(round_, question)
        return Response(info("Tick the key points your answer covered."), form=form)

    # reviews

    async def answers_to_review(self, channel: ChannelSettings) -> Response:
        round_ = await self.revealed_round(channel)
        return Response(answers_card(round_, await self._answers.round_answers(round_.id)))

    async def _answer(self, round_: Round, number: int) -> AnswerRecord:
        answers = await self._answers.round_answers(round_.id)
        if not 1 <= number <= len(answers):
            count = len(answers)
            raise Refused(
                f"Question #{round_.number} has {count} answer{'s' * (count != 1)}: give #1"
                f" to #{count} (`/quiz rate` lists them)."
                if count
                else f"Question #{round_.number} has no answers yet."
            )
        return answers[number - 1]

    async def show_reviews(
        self, channel: ChannelSettings, number: int, member: MemberRef, *, admin: bool
    ) -> Response:
        round_ = await self.revealed_round(channel)
        answer = await self._answer(round_, number)
        reviews = await self._reviews.answer_reviews(answer.id)
        if not admin:
            member_id = await self._members.member_id(member)
            reviews = [r for r in reviews if r.reviewer_id == member_id]
        return Response(reviews_card(number, reviews, admin=admin))

    async def rate(
        self,
        platform: Platform | None,
        channel: ChannelSettings,
        reviewer: MemberRef,
        number: int,
        score: int,
        comment: str,
        covered: tuple[int, ...] | None = None,
        round_: Round | None = None,
    ) -> Response:
        """Record a review of answer #``number`` and, in its transaction, queue the note
        telling its author privately."""
        round_ = round_ or await self.revealed_round(channel)
        answer = await self._answer(round_, number)
        reviewer_id = await self._members.member_id(reviewer)
        if answer.member_id == reviewer_id:
            raise Refused("That is your own answer: review a teammate's, and grade your own.")
        total = len(self._question(channel, round_).key_points)
        tell = await self._telling_author(platform, round_, answer, total, channel)
        result = await self._reviews.record_review(
            ReviewDraft(
                answer.id,
                round_.id,
                channel.id,
                reviewer_id,
                score,
                covered,
                comment.strip(),
                self._clock.now(),
            ),
            points=REVIEW_POINTS,
            cap=REVIEWS_WITH_POINTS,
            key_points=total,
            tell=tell,
        )
        await self._grade_from_reviews(round_, answer)
        return Response(reviewed_card(number, answer, result.review, result.replaced))

    async def _telling_author(
        self,
        platform: Platform | None,
        round_: Round,
        answer: AnswerRecord,
        total: int,
        channel: ChannelSettings,
    ) -> TellAuthor | None:
        """What builds the private note to the answer's author from the review as stored
        (None: they cannot be told), their direct messages opened beforehand."""
        author = await self._reviews.member_ref(answer.member_id)
        if author is None or not isinstance(platform, DirectMessages):
            return None
        direct = await platform.open_direct(author)

        def tell(review: StoredReview) -> OutboxDraft:
            card = told_author_card(round_, review, total, channel.reviews_named)
            key = f"review:{review.id}:{review.reviewed_at.strftime('%Y%m%dT%H%M%S%f')}"
            return direct_draft(direct, card, key)

        return tell

    async def _grade_from_reviews(self, round_: Round, answer: AnswerRecord) -> None:
        """The median review grades the author's card while the author has not graded the
        round; their own grade always wins."""
        scores = [r.score for r in await self._reviews.answer_reviews(answer.id)]
        if not scores:
            return
        target = RoundToGrade(round_.id, round_.channel_id, round_.question_id, True)
        try:
            await self._learning.grade_round(
                target,
                answer.member_id,
                grade_of_reviews(scores),
                self._clock.now(),
                source=GradeSource.REVIEWS,
            )
        except OwnGradeKept:
            log.debug("round %d: the author's own grade stands", round_.id)

    async def remove(
        self,
        channel: ChannelSettings,
        number: int,
        member: MemberRef,
        *,
        admin: bool,
        review_number: int | None,
    ) -> Response:
        round_ = await self.revealed_round(channel)
        answer = await self._answer(round_, number)
        if review_number is None:
            reviewer_id = await self._members.member_id(member)
        else:
            if not admin:
                raise Refused("Only admins remove other members' reviews.")
            reviews = await self._reviews.answer_reviews(answer.id)
            if not 1 <= review_number <= len(reviews):
                raise Refused(
                    f"Answer #{number} has {len(reviews)} reviews: `/quiz rate #{number}` lists"
                    " them."
                )
            reviewer_id = reviews[review_number - 1].reviewer_id
        total = len(self._question(channel, round_).key_points)
        if not await self._reviews.remove_review(answer.id, reviewer_id, total):
            return Response(info(f"No review of answer #{number} to remove."))
        await self._grade_from_reviews(round_, answer)
        return Response(info(f"Review of answer #{number} removed", "Its points are gone too."))

    # the buttons and their forms

    async def on_button(self, press: ButtonPress) -> Response:
        """Tick key points (``r<round>``... a round id) or Review (``r<round>`` under the
        outline, ``a<answer>`` on a blind answer): the form, for the pressing member."""
        channel = await self._channel_of(press.channel)
        if channel is None:
            raise Refused("There is no quiz in this channel any more.")
        if press.action == CHECKLIST_ACTION:
            round_ = await self._round_of(channel, press.value.removeprefix("r"))
            question = self._question(channel, round_)
            if not question.key_points:
                raise Refused(f"Question #{round_.number} has no key points to tick.")
            form = checklist_form(round_, question)
            return Response(info("Tick the key points your answer covered."), form=form)
        picked = None
        if press.value.startswith("a"):
            answer = await self._answers_answer(press.value.removeprefix("a"))
            round_ = await self._round_of(channel, str(answer.round_id))
            answers = await self._answers.round_answers(round_.id)
            picked = next(n for n, a in enumerate(answers, start=1) if a.id == answer.id)
        else:
            round_ = await self._round_of(channel, press.value.removeprefix("r"))
            answers = await self._answers.round_answers(round_.id)
        if not answers:
            raise Refused(f"Question #{round_.number} has no answers to review yet.")
        form = review_form(round_, self._question(channel, round_), answers, picked)
        return Response(info("Review a teammate's answer."), form=form)

    async def on_form(self, submit: FormSubmit, platform: Platform | None) -> Response:
        channel = await self._channel_of(submit.channel)
        if channel is None:
            raise Refused("There is no quiz in this channel any more.")
        round_ = await self._round_of(channel, submit.target)
        question = self._question(channel, round_)
        total = len(question.key_points)
        covered = chosen(submit.values.get(COVERED, ""), total)
        wrong = not_chosen(submit.values.get(COVERED, ""), total)
        if wrong and submit.kind == CHECKLIST_FORM:
            problem = FieldProblem(COVERED, _not_key_points(round_, wrong, total, TICK_HOW))
            return Response(error(f"Nothing was graded: {problem.message}"), problems=(problem,))
        if submit.kind == CHECKLIST_FORM:
            return await self.covered(channel, submit.member, covered, round_)
        answers = await self._answers.round_answers(round_.id)
        problems = []
        picked = chosen(submit.values.get(ANSWER, ""), len(answer_choices(answers)))
        score = chosen(submit.values.get(SCORE, ""), len(SCORES))
        if len(picked) != 1:
            problems.append(FieldProblem(ANSWER, "Pick the answer you review."))
        if len(score) != 1:
            problems.append(FieldProblem(SCORE, "Pick a score from 1 to 4."))
        if wrong:
            problems.append(FieldProblem(COVERED, _not_key_points(round_, wrong, total, TICK_HOW)))
        comment = submit.values.get(COMMENT, "")
        if len(comment) > COMMENT_LIMIT:
            problems.append(
                FieldProblem(COMMENT, f"Keep the comment to {COMMENT_LIMIT} characters.")
            )
        if problems:
            said = "; ".join(p.message for p in problems)
            return Response(error(f"The review was not sent: {said}"), problems=tuple(problems))
        return await self.rate(
            platform,
            channel,
            submit.member,
            picked[0],
            score[0],
            comment,
            covered if total else None,
            round_,
        )

    async def _round_of(self, channel: ChannelSettings, value: str) -> Round:
        """A revealed round of the channel, from a button's or form's id."""
        round_id = round_id_from(value)
        round_ = await self._rounds.get_round(round_id) if round_id is not None else None
        if round_ is None or round_.channel_id != channel.id:
            raise Refused("That question is not in this channel.")
        if round_.revealed_at is None:
            raise Refused(
                f"Question #{round_.number} is not revealed yet: ticks and reviews come after"
                " the outline."
            )
        if round_.created_at < self._clock.now() - REVIEW_WINDOW:
            raise Refused(f"Question #{round_.number} is more than 14 days old.")
        return round_

    async def _answers_answer(self, value: str) -> AnswerRecord:
        answer_id = round_id_from(value)
        answer = await self._answers.answer_by_id(answer_id) if answer_id is not None else None
        if answer is None:
            raise Refused("That answer is gone.")
        return answer

    # the best answer

    async def best(self, channel: ChannelSettings, number: int) -> Response:
        round_ = await self.revealed_round(channel)
        answer = await self._answer(round_, number)
        best = BestAnswer(answer.id, self._clock.now())
        post = OutboxDraft(round_.id, ActionKind.BEST_ANSWER, best_answer_key(round_.id, best))
        if not await self._reviews.mark_best(round_.id, best, post):
            return Response(info(f"Answer #{number} is already the best answer."))
        self._wake()
        return Response(
            info(
                "Best answer marked",
                f"{answer.member_name}'s answer to question #{round_.number} is posted in the"
                " thread, and the weekly recap leads with it.",
            )
        )


TICK_HOW = " Give their numbers, e.g. 1 3."  # said under a form's field


def _not_key_points(round_: Round, wrong: list[str], total: int, how: str = "") -> str:
    """Why ticks are refused: each word that names no key point of the round's question."""
    named = ", ".join(
        f"{w} is not one of them" if w.isdecimal() else f"{quoted(w)} is not a key point"
        for w in wrong
    )
    return f"Question #{round_.number} has key points 1 to {total}: {named}.{how}"
