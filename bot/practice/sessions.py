"""Private practice in a member's direct messages, walked like an interview.

``/quiz practice [timed MINUTES] [TOPIC] [DIFFICULTY]`` asks one question chosen by the
practice policy; each answer in the DM brings the next follow-up, then the outline with the
grade buttons; the grade updates the member's own card (never the channel's leaderboard).
A timed question moves on by itself when its time is up (see :mod:`bot.practice.timer`).
One open session per member; a session untouched for a day expires quietly.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Protocol

from bot.bank.rotation import eligible_questions
from bot.kernel import cards
from bot.kernel.clock import Clock
from bot.kernel.errors import DuplicateDelivery, Refused, unknown_topic
from bot.kernel.events import ButtonPress, DirectMessage
from bot.kernel.grades import Grade
from bot.kernel.members import MemberIds
from bot.kernel.models import Delivery, OutboxAction, OutboxDraft, direct_draft
from bot.kernel.outbox_queue import OutboxQueue
from bot.kernel.platform import DirectMessages, Platform
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.render import Card, Response
from bot.kernel.stores import DeliveryStore
from bot.learning.goal_hint import GoalHint
from bot.learning.service import LearningService
from bot.learning.store import SessionOver
from bot.practice import _cards as practice_cards
from bot.practice._cards import HINT_ACTION, NEXT_ACTION, session_of_value
from bot.practice.coach_hook import PracticeCoach
from bot.practice.keys import step_key
from bot.practice.store import PracticeDraft, PracticeSession, PracticeState, PracticeStore
from bot.practice.timer import (
    TimerStep,
    show_span,
    tick_of,
    time_left,
    timer_drafts,
    waits_on_question,
)
from bot.rounds.cards import grade_of_action
from questions.pack import Difficulty, Question

log = logging.getLogger(__name__)

SESSION_LIFETIME = timedelta(hours=24)
NO_DIRECT_MESSAGES = "Private practice needs direct messages, which this platform does not offer."
SESSION_OVER = "That practice session is over. Start another with `/quiz practice`."
TIME_UP = "Time's up. As in an interview, we move on; your answer can still come with this."
TIME_UP_OUTLINE = "Time's up. Grade what you had in mind against the outline."
ALREADY_OPEN = (
    "You already have a practice session open in your direct messages with me. "
    "Answer it there, or end it with `/quiz practice stop`."
)


def same_place(a: ChannelRef, b: ChannelRef) -> bool:
    return (a.platform, a.channel_id) == (b.platform, b.channel_id)


def is_practice_button(press: ButtonPress) -> bool:
    """A practice card's Next button, or a grade button that names its session."""
    return press.action in (NEXT_ACTION, HINT_ACTION) or session_of_value(press.value) is not None


class PracticeQuestions(Protocol):
    """What sessions read of the questions (the round engine offers them)."""

    def question_for(self, channel: ChannelRef, question_id: int) -> Question | None: ...
    def question_topics(self) -> Mapping[int, str]: ...
    def question_difficulties(self) -> Mapping[int, Difficulty | None]: ...


class PracticeSessions:
    """Starts, advances, grades and ends members' private practice sessions."""

    def __init__(
        self,
        questions: PracticeQuestions,
        *,
        outbox: OutboxQueue,
        sessions: PracticeStore,
        members: MemberIds,
        deliveries: DeliveryStore,
        learning: LearningService,
        clock: Clock,
        default_timezone: str,
        goal_hint: GoalHint | None = None,
        coach: PracticeCoach | None = None,
    ) -> None:
        self._questions = questions
        self._coach = coach
        self._outbox = outbox
        self._clock = clock
        self._default_timezone = default_timezone
        self._goal_hint = goal_hint
        self._store = sessions
        self._members = members
        self._deliveries = deliveries
        self._learning = learning

    async def current(self, member_id: int) -> PracticeSession | None:
        """The member's open session; one untouched for a day is closed quietly first."""
        return await self._alive(await self._store.open_session(member_id))

    async def current_of(self, member: MemberRef) -> PracticeSession | None:
        """:meth:`current` of the member by their platform reference."""
        return await self.current(await self._members.member_id(member))

    async def in_direct(self, channel: ChannelRef) -> PracticeSession | None:
        """The open session of this DM channel (the member's, whatever workspace the
        platform says a DM is in)."""
        return await self._alive(await self._store.open_session_in(channel))

    async def _alive(self, session: PracticeSession | None) -> PracticeSession | None:
        now = self._clock.now()
        if session is not None and now - session.touched_at >= SESSION_LIFETIME:
            await self._store.close_session(session.id, "expired", now)
            log.info("practice session %d expired", session.id)
            return None
        return session

    async def start(
        self,
        platform: Platform,
        member: MemberRef,
        topic: str | None,
        member_id: int | None = None,
        *,
        difficulty: Difficulty | None = None,
        time_limit_minutes: int | None = None,
    ) -> Response:
        """A new session for ``member`` (``member_id``: who they are in the store, when
        known; a Discord DM carries no guild to find it by), of ``topic`` and ``difficulty``
        when given (None: any), with ``time_limit_minutes`` to answer its question when
        timed (None: untimed)."""
        if not isinstance(platform, DirectMessages):
            raise Refused(NO_DIRECT_MESSAGES)
        topics = self._questions.question_topics()
        known = sorted(set(topics.values()))
        if topic is not None and topic not in known:
            raise unknown_topic(topic, known)
        if difficulty is not None and not eligible_questions(
            topics,
            None,
            topic,
            difficulty=difficulty,
            difficulties=self._questions.question_difficulties(),
        ):
            where = f" in {topic}" if topic else ""
            raise Refused(
                f"No {difficulty} question{where} to practise. Pick another difficulty, e.g."
                f" `/quiz practice {topic + ' ' if topic else ''}any`."
            )
        if member_id is None:
            member_id = await self._members.member_id(member)
        current = await self.current(member_id)
        if current is not None:
            if current.state is PracticeState.ANSWER and current.answers == 0:
                # Its question (and timer) may never have been queued (a failure just after
                # the session began): queued again under their keys, each is sent once.
                await self._outbox.queue(self._opening(current))
            raise Refused(ALREADY_OPEN)
        now = self._clock.now()
        question_id = await self._learning.choose_practice(
            member_id, now, topic=topic, difficulty=difficulty
        )
        if question_id is None:
            which = f" of {topic}" if topic else ""
            level = f" {difficulty}" if difficulty else ""
            raise Refused(
                f"Nothing to practise right now: every{level} question{which} was graded in the "
                "last day. Come back tomorrow."
            )
        direct = await platform.open_direct(member)
        draft = PracticeDraft(
            member_id, direct, question_id, topic, now, difficulty, time_limit_minutes
        )
        session = await self._store.start_session(draft)
        if session is None:
            raise Refused(ALREADY_OPEN)
        await self._outbox.queue(self._opening(session))
        said = "I sent you a question in your direct messages."
        if time_limit_minutes is not None:
            said = f"{said} You have {time_limit_minutes} min to answer it, from now."
        if self._goal_hint is not None:
            has_goal = await self._learning.goal_target(member_id, now) is not None
            hint = await self._goal_hint.take(member_id, has_goal)
            if hint is not None:
                said = f"{said}\n{hint}"
        return Response(cards.info("Practice started", said))

    async def stop(self, member: MemberRef) -> Response:
        member_id = await self._members.member_id(member)
        session = await self.current(member_id)
        if session is None:
            return Response(cards.info("No practice session is open."))
        await self._store.close_session(session.id, "stopped", self._clock.now())
        return Response(cards.info("Practice session ended."))

    async def on_direct(self, event: DirectMessage, platform: Platform) -> None:
        """An answer while the session waits for one; any other DM gets the help text."""
        session = await self.in_direct(event.channel)
        # The answer's event id is kept with the step it brings (see ``advance``); looked
        # up after the session was read: a redelivery racing its first delivery either read
        # the session before that step (and queues the same card, whose key sends it once,
        # and moves nothing) or finds the id here, so it never brings the step after.
        delivery = Delivery(event.channel.platform, event.event_id)
        if await self._deliveries.event_processed(delivery.platform, delivery.event_id):
            raise DuplicateDelivery(f"{delivery.platform} event {delivery.event_id}")
        if session is None:
            await self._outbox.send_direct(
                event.channel, practice_cards.help_card(), f"dm-help:{event.event_id}"
            )
            return
        if session.state is PracticeState.GRADE:
            await self._outbox.send_direct(
                event.channel, practice_cards.waiting_for_grade(), f"dm-help:{event.event_id}"
            )
            return
        question = self._question(session)
        number = session.answers + 1  # the follow-up this answer unlocks
        # After the pack's follow-ups the answer coach may ask one of its own; an answer
        # after that one (the session still waits for an answer) brings the outline.
        probe = None
        if number == len(question.follow_ups) + 1 and self._coach is not None:
            probe = await self._coach.probe(session.id)
        last = number > len(question.follow_ups) and probe is None
        state = PracticeState.GRADE if last else PracticeState.ANSWER
        # Queued before the session moves on: if queuing fails, the answer delivered or
        # written again brings this step; queued twice (a racing answer) its key sends it once.
        now = self._clock.now()
        if last:
            card = practice_cards.outline_card(question, session.id)
            await self._send(platform, session, "outline", card)
        elif probe is not None:
            await self._send(
                platform, session, "coach-probe", practice_cards.coach_probe_card(probe)
            )
        else:
            took = self._answered_in(session, now)
            card = practice_cards.follow_up_card(question, number, session.id, answered_in=took)
            await self._send(platform, session, f"follow-up:{number}", card)
        await self._store.advance(session.id, session.answers, state, now, delivery=delivery)
        if self._coach is not None:
            if session.answers == 0 and not session.timed_out:  # the question's own answer
                await self._coach.answered(session.id, session.member_id, event.text)
            if last:
                await self._coach.outline_queued(session.id)

    async def waiting_for_grade(self, channel: ChannelRef) -> PracticeSession | None:
        """The session whose DM ``channel`` is (a grade given there is for it)."""
        return await self.in_direct(channel)

    async def on_button(self, press: ButtonPress, platform: Platform) -> Response | None:
        """A practice card's button: the next question, or the grade of the session's."""
        if press.action in (NEXT_ACTION, HINT_ACTION):
            value = press.value
            session_id = int(value[:12]) if value.isascii() and value.isdigit() else 0
            if press.action == HINT_ACTION:
                hinted = await self.in_direct(press.channel)
                if hinted is None or hinted.id != session_id:
                    raise Refused(SESSION_OVER)
                await self.hint(platform, hinted)
                return None
            return await self.next_question(platform, press.member, press.channel, session_id)
        grade = grade_of_action(press.action)
        session = await self.waiting_for_grade(press.channel)
        if grade is None or session is None or session.id != session_of_value(press.value):
            raise Refused("That practice session is over. Start another with `/quiz practice`.")
        await self.grade(platform, session, grade)
        return None

    async def hint(self, platform: Platform, session: PracticeSession) -> None:
        """Reveal the session's next key point (once each: queued under its number)."""
        question = self._question(session)
        if session.state is not PracticeState.ANSWER:
            raise Refused("The outline is out already: every key point is in it.")
        if session.hints >= len(question.key_points):
            raise Refused("No more hints: you have every key point of this question.")
        taken = await self._store.take_hint(session.id, self._clock.now())
        if taken is None:
            raise Refused(SESSION_OVER)
        left = time_left(session, self._clock.now())
        card = practice_cards.hint_card(question, min(taken, len(question.key_points)), left)
        await self._send(platform, session, f"hint:{taken}", card)

    async def on_timer(self, platform: Platform, action: OutboxAction) -> None:
        """A timed session's timer step came due: the last-minute warning, or the time up
        (on to the first follow-up, or the outline). Nothing once the question is answered,
        or the session is over."""
        tick = tick_of(action.key)
        session = None if action.destination is None else await self.in_direct(action.destination)
        if tick is None or session is None or session.id != tick.session_id:
            return
        if not waits_on_question(session):
            return
        question = self._question(session)
        if tick.step is TimerStep.LAST_MINUTE:
            await self._send(
                platform, session, "last-minute", practice_cards.last_minute_card(question)
            )
            return
        if question.follow_ups:
            card = practice_cards.follow_up_card(question, 1, session.id, lead=TIME_UP)
            step, state = "follow-up:1", PracticeState.ANSWER
        else:
            card = practice_cards.outline_card(question, session.id, lead=TIME_UP_OUTLINE)
            step, state = "outline", PracticeState.GRADE
        # Queued under the key an answer's step has: whichever comes first is the one sent.
        await self._send(platform, session, step, card)
        if await self._store.run_out(session.id, state, self._clock.now()):
            log.info("practice session %d: time ran out", session.id)
        if state is PracticeState.GRADE and self._coach is not None:
            await self._coach.outline_queued(session.id)

    @staticmethod
    def how_to_grade() -> Response:
        """What a member is told who asked to grade practice without a grade to give."""
        return Response(practice_cards.waiting_for_grade())

    async def grade(self, platform: Platform, session: PracticeSession, grade: Grade) -> None:
        """Grade the session's question. The confirmation, with its "Next question" button,
        is posted in the DM once, and is the only one: nothing is told privately besides."""
        if session.state is not PracticeState.GRADE:
            raise Refused("Answer the question and its follow-ups first, then grade.")
        note = ""
        if session.timed_out:
            note = "The time ran out before your answer to the question. "
        if session.hints and grade is Grade.NAILED:  # a hint taken: "good" at best
            grade = Grade.GOOD
            note += 'With a hint taken, "good" is the best grade. '
        now = self._clock.now()
        try:
            # The session closes in the grade's transaction: never closed without its grade.
            result = await self._learning.grade(
                session.member_id, session.question_id, grade, now, closes_session=session.id
            )
        except SessionOver:
            raise Refused(SESSION_OVER) from None
        zone = self._default_timezone
        card = practice_cards.graded_card(grade, result.card.due, zone, session.id, note)
        await self._send(platform, session, "graded", card)

    async def next_question(
        self, platform: Platform, member: MemberRef, channel: ChannelRef, after_session: int
    ) -> Response:
        """ "Next question": a new session of the same topic and difficulty as the one
        just graded."""
        previous = await self._store.session(after_session)
        if previous is None or not await self._owns(previous, member, channel):
            raise Refused("That button belongs to someone else's practice.")
        return await self.start(
            platform,
            member,
            previous.topic,
            previous.member_id,
            difficulty=previous.difficulty,
            time_limit_minutes=previous.time_limit_minutes,
        )

    async def _owns(self, session: PracticeSession, member: MemberRef, channel: ChannelRef) -> bool:
        """Whether ``member``, pressing in ``channel``, is the member of ``session``. A press
        in the session's own DM is its member's (only they share it with the bot): a Discord
        DM carries no guild, so the member found by the guild-less ref would be a stranger."""
        if same_place(session.direct, channel):
            return True
        return await self._members.member_id(member) == session.member_id

    def _opening(self, session: PracticeSession) -> list[OutboxDraft]:
        """The session's question card and its timer's steps, queued together."""
        card = practice_cards.question_card(
            self._question(session), session.id, session.time_limit_minutes
        )
        question = direct_draft(session.direct, card, _step_key(session, "question"))
        return [question, *timer_drafts(session)]

    @staticmethod
    def _answered_in(session: PracticeSession, now: datetime) -> str:
        """How long a timed question took to answer ("4 min 12 s of 10 min"); "" when the
        session is untimed or its time ran out."""
        if not waits_on_question(session):
            return ""
        return f"{show_span(now - session.started_at)} of {session.time_limit_minutes} min"

    def _question(self, session: PracticeSession) -> Question:
        question = self._questions.question_for(session.direct, session.question_id)
        if question is None:
            raise Refused("That practice question is no longer in any pack.")
        return question

    async def _send(
        self, platform: Platform, session: PracticeSession, step: str, card: Card
    ) -> None:
        """Queue a step's card for the session's DM channel: the outbox sends it once."""
        await self._outbox.send_direct(session.direct, card, _step_key(session, step))


def _step_key(session: PracticeSession, step: str) -> str:
    return step_key(session.id, step)
