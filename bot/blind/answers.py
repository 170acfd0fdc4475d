"""Blind mode: members answer privately until the reveal (``/quiz config answers blind``).

An answer comes from the question card's Answer button (a form: a Slack or Discord modal, the
console's form lines), or from ``/quiz answer TEXT`` on any platform. It is stored at once as
the member's answer of the round (scored like a reply in the thread, with the bonus for
answering before the reveal) and confirmed privately; a later one replaces its text until the
reveal or the close, after which answering is refused. At the reveal (or the close, for a
question closed before its reveal) the outbox posts every blind answer in the thread
(:mod:`bot.blind.posts`). A reply typed in the thread still counts, and its author
is told privately that the channel answers blind. A member has one answer per round: after a
reply in the thread a blind answer is refused, and a reply takes over a blind answer that
waits.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.blind.posts import placeholder
from bot.kernel import cards as kernel_cards
from bot.kernel.channel_settings import ChannelSettingsLookup
from bot.kernel.clock import Clock
from bot.kernel.errors import PlatformError, Refused
from bot.kernel.events import ButtonPress, Command, FormSubmit, Reply
from bot.kernel.forms import FieldProblem, Form, FormField
from bot.kernel.log_context import about
from bot.kernel.members import MemberIds
from bot.kernel.metrics import Metrics
from bot.kernel.models import (
    ActionKind,
    AnswerDraft,
    AnswerMode,
    AnswerOutcome,
    ChannelSettings,
    OutboxDraft,
    Round,
    RoundState,
    action_key,
)
from bot.kernel.outbox_queue import OutboxQueue
from bot.kernel.platform import Platform
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.render import Card, Field, Response
from bot.kernel.scoring import ScoringRules
from bot.rounds import cards
from bot.rounds.store import AnswerStore, RoundStore

log = logging.getLogger(__name__)

ANSWER_FORM = "answer"
ANSWER_FIELD = "answer"
ANSWER_COMMAND = "answer"
EVENT_PREFIX = "blind-answer:"  # its own event id: the command's was recorded by the chain
# The most an answer holds, however it comes in: Slack's limit on a form input's value, so
# the answer form can always be pre-filled with the whole answer so far to change it.
ANSWER_LIMIT = 3000

NOT_BLIND = (
    "This channel answers in the question's thread: reply there. An admin can make answers"
    " private until the reveal with `/quiz config answers blind`."
)
NO_OPEN_QUESTION = "There is no open question to answer. An admin can post one with `/quiz now`."
STALE_QUESTION = "That question is closed: answer the current one."
NOT_HERE = "Answer in the quiz channel where the question was posted."
NO_TEXT = "Write your answer first."
THREAD_HINT = (
    "Blind mode is on in this channel: your reply counts as your answer, but everyone can"
    " already read it. To keep an answer private until the reveal, press the question's Answer"
    " button or type `/quiz answer TEXT`."
)

REPLACED_HINT = (
    "Blind mode is on in this channel: your reply replaces your private answer (one answer"
    " per member and question), and everyone can already read it. To change it, edit your"
    " reply."
)


def replied_refusal(round_: Round) -> str:
    return (
        f"You answered question #{round_.number} in its thread already: that reply is your"
        " answer (one per member and question), and everyone can read it. To change it, edit"
        " your reply there."
    )


def revealed_refusal(round_: Round) -> str:
    return (
        f"Question #{round_.number} is already revealed, so answers are closed: blind answers"
        " are taken until the reveal. Your answer was not saved."
    )


def closed_refusal(round_: Round) -> str:
    return (
        f"Question #{round_.number} is closed, so it takes no more answers. Your answer was"
        " not saved: answer the open question instead."
    )


def waiting_refusal(round_: Round, waiting: int) -> str:
    return (
        f"Question #{round_.number} has {waiting} blind answer(s) waiting for its reveal."
        " Reveal it (`/quiz reveal`) or close it (`/quiz skip`; either posts them in its"
        " thread) first, then switch to answers in the thread."
    )


def opens_form(event: Command | ButtonPress) -> bool:
    """Whether the event may be answered with the answer form (Discord must then not defer
    the interaction): the Answer button, or ``/quiz answer`` without a text."""
    if isinstance(event, ButtonPress):
        return event.action == cards.ANSWER_ACTION
    return event.name.strip().lower() == ANSWER_COMMAND and not "".join(event.args).strip()


def answer_form(round_: Round, current: str) -> Form:
    title = "Change your answer" if current else "Your answer"
    field = FormField(
        ANSWER_FIELD,
        f"Question #{round_.number} (only you see it)",
        multiline=True,
        value=current,
        hint="Hidden until the reveal; you can change it until then.",
        max_length=ANSWER_LIMIT,
    )
    return Form(ANSWER_FORM, str(round_.id), title, (field,), submit="Save")


class BlindAnswers:
    """Takes blind answers (the form, ``/quiz answer``) and hints at blind mode to members
    who reply in the thread. Holds no state of its own: the store is the truth."""

    def __init__(
        self,
        settings: ChannelSettingsLookup,
        rounds: RoundStore,
        answers: AnswerStore,
        *,
        members: MemberIds,
        outbox: OutboxQueue,
        clock: Clock,
        scoring: ScoringRules,
        metrics: Metrics,
        recorded: Callable[[int, ChannelSettings], Awaitable[None]] | None = None,
    ) -> None:
        # told of each first blind answer recorded (the answer coach reads it)
        self._recorded = recorded
        self._settings = settings
        self._outbox = outbox
        self._clock = clock
        self._scoring = scoring
        self._metrics = metrics
        self._rounds = rounds
        self._answers = answers
        self._members = members

    async def form(self, channel: ChannelRef, member: MemberRef, round_id: int | None) -> Response:
        """The answer form for the channel's open round (``round_id``: the round a pressed
        button belongs to), pre-filled with the member's answer so far."""
        _, round_ = await self._answerable(channel, round_id)
        member_id = await self._members.member_id(member)
        current = await self._blind_answer_so_far(round_, member_id)
        return Response(
            kernel_cards.info(
                f"Answer question #{round_.number}",
                "Fill in the form, or type `/quiz answer TEXT`.",
            ),
            form=answer_form(round_, current),
        )

    async def on_button(self, press: ButtonPress) -> Response:
        round_id = cards.round_id_from(press.value)
        if round_id is None:
            raise Refused(STALE_QUESTION)
        return await self.form(press.channel, press.member, round_id)

    async def on_form(self, submit: FormSubmit) -> Response:
        round_id = cards.round_id_from(submit.target)
        text = submit.values.get(ANSWER_FIELD, "").strip()
        problem = _text_problem(text)
        if problem is not None:
            return Response(
                kernel_cards.error(problem), problems=(FieldProblem(ANSWER_FIELD, problem),)
            )
        return await self.answer(
            submit.channel, submit.member, text, submit.event_id, round_id=round_id or -1
        )

    async def answer(
        self,
        channel: ChannelRef,
        member: MemberRef,
        text: str,
        event_id: str,
        *,
        round_id: int | None = None,
    ) -> Response:
        """Store the member's blind answer (replacing an earlier one) and say so privately;
        ``Refused`` with the reason when it cannot be taken."""
        text = text.strip()
        problem = _text_problem(text)
        if problem is not None:
            raise Refused(f"{problem} E.g. `/quiz answer Shard the KV cache by head`.")
        quiz, round_ = await self._answerable(channel, round_id)
        now = self._clock.now()
        member_id = await self._members.member_id(member)
        await self._blind_answer_so_far(round_, member_id)  # refused after a reply in the thread
        message_id = placeholder(member_id)
        changed = await self._answers.edit_blind_answer(round_.id, message_id, text, now)
        if not changed:
            rules = self._scoring
            result = await self._answers.record_answer(
                AnswerDraft(
                    event_id=f"{EVENT_PREFIX}{event_id}",
                    platform=channel.platform,
                    round_id=round_.id,
                    channel_id=quiz.id,
                    member_id=member_id,
                    message_id=message_id,
                    text=text,
                    at=now,
                    points_for_answer=rules.answer,
                    bonus_before_reveal=rules.before_reveal_bonus,
                )
            )
            self._metrics.answer_recorded(channel.platform, result.outcome.value)
            if result.outcome is AnswerOutcome.DUPLICATE:
                # an answer is there (a racing submission was first, or the change above was
                # too late: the reveal or the close may be posting the answer as it stands)
                changed = await self._answers.edit_blind_answer(round_.id, message_id, text, now)
                if not changed:
                    raise Refused(await self._too_late(round_) or revealed_refusal(round_))
            elif result.answer_id is not None:
                too_late = await self._too_late(round_)
                if too_late and await self._answers.withdraw_answer(result.answer_id, message_id):
                    # revealed or closed between the check above and the write (even if the
                    # clock read before it was older): its answers may be posted already, so
                    # this one would never be (kept if they just posted it after all)
                    raise Refused(too_late)
                if self._recorded is not None and result.outcome is AnswerOutcome.SCORED:
                    await self._recorded(result.answer_id, quiz)
        log.info("blind answer %s", "changed" if changed else "saved", extra=about(channel))
        return Response(_saved_card(round_, text, changed=changed))

    async def take_reply(self, reply: Reply, quiz: ChannelSettings, platform: Platform) -> bool:
        """One answer per member and round: a new reply in the thread of a blind round whose
        author has a blind answer waiting becomes that answer (its text and message, so votes
        on the reply count for it; its points and time stay) rather than a second answer
        beside it, and its author is told so privately. True when it did: the reply is then
        recorded."""
        if reply.edited or quiz.answer_mode is not AnswerMode.BLIND:
            return False
        round_ = await self._rounds.open_round(quiz.id)
        thread = reply.thread.thread_id
        if round_ is None or round_.revealed_at is not None or round_.thread != thread:
            return False
        author = await self._answers.answer_author(
            reply.member, round_.id, reply.message.message_id
        )
        if author is None:
            return False  # an erased answer delivered again: the engine drops it
        mine = placeholder(author)
        waiting = [
            a for a in await self._answers.waiting_blind_answers(round_.id) if a.message_id == mine
        ]
        now = self._clock.now()
        # the text first: a crash before the message id is recorded leaves a blind answer
        # that this reply, delivered again, takes over once more
        if not waiting or not await self._answers.edit_blind_answer(
            round_.id, mine, reply.text, now
        ):
            return False
        if not await self._answers.answer_posted(waiting[0].id, mine, reply.message.message_id):
            return False  # the reveal posted it meanwhile: the reply is a later answer
        log.info("a reply took over a blind answer", extra=about(reply.channel))
        await _hint(reply, platform, REPLACED_HINT)
        return True

    async def hint_after_reply(
        self, reply: Reply, quiz: ChannelSettings, platform: Platform
    ) -> None:
        """Tell a member who answered in the thread of a blind round, privately, that the
        channel answers blind (their reply still counts)."""
        if quiz.answer_mode is not AnswerMode.BLIND:
            return
        round_ = await self._rounds.open_round(quiz.id)
        thread = reply.thread.thread_id
        if round_ is None or round_.revealed_at is not None or round_.thread != thread:
            return
        await _hint(reply, platform, THREAD_HINT)

    async def _answerable(
        self, channel: ChannelRef, round_id: int | None
    ) -> tuple[ChannelSettings, Round]:
        """The quiz and its open, unrevealed round, or ``Refused`` saying why not."""
        quiz = await self._settings.channel(channel)
        if quiz is None:
            raise Refused(NOT_HERE)
        if quiz.answer_mode is not AnswerMode.BLIND:
            raise Refused(NOT_BLIND)
        round_ = await self._rounds.open_round(quiz.id)
        if round_ is not None and round_id is not None and round_.id != round_id:
            raise Refused(STALE_QUESTION)
        if round_ is None:
            raise Refused(STALE_QUESTION if round_id is not None else NO_OPEN_QUESTION)
        if round_.revealed_at is not None:
            raise Refused(revealed_refusal(round_))
        return quiz, round_

    async def before_thread_mode(self, channel: ChannelSettings) -> str:
        """Settle the channel's blind answers not posted yet before it goes back to answers
        in the thread (the reveal of a thread channel posts none): those of the open
        question before its reveal refuse the switch, naming it; any other round's are
        queued to be posted in its thread now. Returns what to add to the note."""
        rounds = await self._rounds.rounds_with_unposted_blind_answers(channel.id)
        for round_ in rounds:
            if round_.state is RoundState.OPEN and round_.revealed_at is None:
                waiting = await self._answers.waiting_blind_answers(round_.id)
                raise Refused(waiting_refusal(round_, len(waiting)))
        if not rounds:
            return ""
        kind = ActionKind.BLIND_ANSWERS
        await self._outbox.queue([OutboxDraft(r.id, kind, action_key(r.id, kind)) for r in rounds])
        numbers = ", ".join(f"#{r.number}" for r in rounds)
        whose = f"question {numbers} are posted in its thread"
        if len(rounds) > 1:
            whose = f"questions {numbers} are posted in their threads"
        return f" The blind answers left unposted of {whose}."

    async def _too_late(self, round_: Round) -> str | None:
        """Why the round takes no more answers now (revealed or closed since it was read)."""
        now = await self._rounds.get_round(round_.id)
        if now is None or now.revealed_at is not None:
            return revealed_refusal(round_)
        if now.state is not RoundState.OPEN:
            return closed_refusal(round_)
        return None

    async def _blind_answer_so_far(self, round_: Round, member_id: int) -> str:
        """The member's blind answer to the round so far ("" when none); ``Refused`` when
        they replied in the thread: one answer per member and round, and that reply is it."""
        mine = placeholder(member_id)
        text = ""
        for answer in await self._answers.round_answers(round_.id):
            if answer.member_id == member_id:
                if answer.message_id != mine:  # a reply, or posted since the round was read
                    raise Refused(await self._too_late(round_) or replied_refusal(round_))
                text = answer.text
        return text


async def _hint(reply: Reply, platform: Platform, text: str) -> None:
    """Tell the reply's author privately about blind mode (best effort)."""
    try:
        await platform.tell(reply.member, reply.channel, kernel_cards.info("Blind mode", text))
    except PlatformError as problem:
        log.warning("could not send the blind-mode hint: %s", problem, extra=about(reply.channel))


def _text_problem(text: str) -> str | None:
    if not text:
        return NO_TEXT
    if len(text) > ANSWER_LIMIT:
        return (
            f"An answer holds at most {ANSWER_LIMIT} characters; yours has {len(text)}."
            " Shorten it and send it again."
        )
    return None


def _saved_card(round_: Round, text: str, *, changed: bool) -> Card:
    title = "Answer changed" if changed else "Answer saved"
    return Card(
        title=f"{title} (only you see it)",
        body=(
            f"Your answer to question #{round_.number} stays hidden until the reveal, then it"
            " is posted in the thread under your name. Until then a new answer (the Answer"
            " button or `/quiz answer TEXT`) replaces this one."
        ),
        fields=(Field("Your answer", text),),
    )
