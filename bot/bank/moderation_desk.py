"""Suggestions, their moderation, and errata: what ``/quiz suggest``, ``/quiz review`` and
``/quiz flag``, their buttons and their forms do.

An approved suggestion joins the workspace's own pack (stored in the database) and the
engine's :class:`~bot.bank.catalog.WorkspaceCatalog` at once, so the next round of any
channel of that workspace may ask it. Editing a bundled question stores an override for the
workspace; pack files are never written.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Protocol

from bot.bank._question_form import (
    echo,
    form_problems,
    question_form,
    question_from_values,
    question_values,
)
from bot.bank._where_asked import where_asked
from bot.bank.catalog import WorkspaceCatalog, workspace_of
from bot.bank.moderation_cards import (
    APPROVE_ACTION,
    EDIT_ACTION,
    REJECT_ACTION,
    moderation_queue_card,
    refused_form,
    suggestion_card,
)
from bot.bank.store import (
    BankStore,
    Override,
    OwnQuestion,
    Suggestion,
    SuggestionState,
    TooManyWaiting,
)
from bot.bank.suggestion_forms import (
    ADMIN_FORMS,
    EDIT_QUESTION_FORM,
    EDIT_SUGGESTION_FORM,
    MAX_PENDING_SUGGESTIONS,
    PLACEHOLDER_ID,
    REASON,
    REJECT_FORM,
    Item,
    approved_question_id,
    no_quiz_to_suggest_to,
    parse_item,
)
from bot.kernel import cards
from bot.kernel.channel_settings import ChannelSettingsLookup
from bot.kernel.clock import Clock
from bot.kernel.errors import PlatformError
from bot.kernel.events import ButtonPress, FormSubmit
from bot.kernel.forms import Form, FormField
from bot.kernel.log_context import about
from bot.kernel.members import MemberIds
from bot.kernel.models import Round
from bot.kernel.platform import Platform
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.render import Card, Response
from bot.kernel.scoring import ScoringRules
from bot.kernel.stores import ChannelStore
from questions.pack import Question
from questions.question_check import FieldProblem, QuestionInvalid
from questions.similarity import NEAR_DUPLICATE_THRESHOLD

log = logging.getLogger(__name__)


class LatestRounds(Protocol):
    """What the desk reads of the rounds: a channel's latest round, the one a flag is about."""

    async def latest_round(self, channel_id: int) -> Round | None: ...


class ModerationDesk:
    """Suggestions, flags and their moderation, for members and admins."""

    def __init__(
        self,
        settings: ChannelSettingsLookup,
        *,
        questions: WorkspaceCatalog,
        clock: Clock,
        scoring: ScoringRules,
        bank: BankStore,
        rounds: LatestRounds,
        members: MemberIds,
        channels: ChannelStore,
    ) -> None:
        self._settings = settings
        self._questions = questions
        self._clock = clock
        self._scoring = scoring
        self._bank = bank
        self._rounds = rounds
        self._members = members
        self._channels = channels

    # member side

    async def flag(self, channel: ChannelRef, member: MemberRef, reason: str) -> Response:
        reason = reason.strip()
        if not reason:
            return Response(
                cards.error(
                    "Say what is wrong, e.g. `/quiz flag the H100 has 80 GB of HBM3, not 40`."
                )
            )
        quiz = await self._settings.channel(channel)
        round_ = await self._rounds.latest_round(quiz.id) if quiz else None
        if quiz is None or round_ is None:
            return Response(cards.error("There is no round in this channel to flag yet."))
        member_id = await self._members.member_id(member)
        earlier = await self._bank.open_flag_by(round_.id, member_id)
        if earlier is not None:
            return Response(
                cards.info(
                    "Already flagged",
                    f"You already flagged question #{round_.number} as #f{earlier.id}"
                    f" ({earlier.reason[:120]}): one open flag per member and round. An admin"
                    " will see it in `/quiz review`.",
                )
            )
        flag_id = await self._bank.add_flag(
            workspace_of(channel), quiz.id, round_.id, member_id, reason, self._clock.now()
        )
        log.info("round #%d flagged: f%d", round_.number, flag_id, extra=about(channel))
        return Response(
            cards.info(
                "Thanks: flagged",
                f"Flag #f{flag_id} on question #{round_.number}: an admin will see it in "
                "`/quiz review` and can correct the question.",
            )
        )

    # admin side

    async def queue(self, channel: ChannelRef) -> Response:
        space = workspace_of(channel)
        suggestions = await self._bank.pending_suggestions(space)
        flags = await self._bank.flags(space)
        return Response(moderation_queue_card(suggestions, flags))

    async def decide(
        self,
        action: str,
        item_text: str,
        reason: str,
        *,
        by: MemberRef,
        channel: ChannelRef,
        platform: Platform,
    ) -> Response:
        item = parse_item(item_text)
        if item is None:
            return Response(
                cards.error(
                    f"{item_text!r} is not a review item: use s<N> for a suggestion or f<N> for"
                    " a flag (see `/quiz review`)."
                )
            )
        if action == "approve":
            return await self._approve(item, by=by, channel=channel, platform=platform)
        if action == "reject":
            return await self._reject(item, reason, by=by, channel=channel, platform=platform)
        return await self._edit_form(item, channel)

    async def on_button(self, press: ButtonPress, platform: Platform) -> Response:
        if not await platform.is_admin(press.member, press.channel):
            return Response(cards.error("Reviewing needs a quiz admin of this channel."))
        if press.action == APPROVE_ACTION:
            return await self.decide(
                "approve",
                press.value,
                "",
                by=press.member,
                channel=press.channel,
                platform=platform,
            )
        if press.action == EDIT_ACTION:
            return await self.decide(
                "edit", press.value, "", by=press.member, channel=press.channel, platform=platform
            )
        if press.action == REJECT_ACTION:
            item = parse_item(press.value)
            if item is None:
                return Response(cards.error("That button is no longer valid."))
            title = "Dismiss the flag" if item.kind == "f" else "Reject the suggestion"
            form = Form(
                REJECT_FORM,
                str(item),
                title,
                (FormField(REASON, "Reason (optional)", True, required=False),),
                submit="Reject" if item.kind != "f" else "Dismiss",
            )
            return Response(cards.info(title, f"Say why (optional): `{item}`."), form=form)
        return Response(cards.error("That button is no longer supported."))

    async def on_form(self, submit: FormSubmit, platform: Platform) -> Response:
        if submit.kind in ADMIN_FORMS and not await platform.is_admin(
            submit.member, submit.channel
        ):
            return Response(cards.error("Reviewing needs a quiz admin of this channel."))
        match submit.kind:
            case "suggest":
                return await self._suggested(submit)
            case "edit_suggestion":
                return await self._suggestion_edited(submit)
            case "edit_question":
                return await self._question_edited(submit)
            case "reject":
                return await self.decide(
                    "reject",
                    submit.target,
                    submit.values.get(REASON, ""),
                    by=submit.member,
                    channel=submit.channel,
                    platform=platform,
                )
        return Response(cards.error("That form is no longer supported."))

    # suggestions

    async def _suggested(self, submit: FormSubmit) -> Response:
        quiz = await self._settings.channel(submit.channel)
        if quiz is None:
            return no_quiz_to_suggest_to()
        try:
            question = question_from_values(submit.values, question_id=PLACEHOLDER_ID)
        except QuestionInvalid as invalid:
            return _refused("Your suggestion", invalid, submit.values)
        member_id = await self._members.member_id(submit.member)
        if len(await self._waiting(submit)) >= MAX_PENDING_SUGGESTIONS:
            return await self._too_many_waiting(submit)
        duplicate = self._near_duplicate(submit, question)
        if duplicate is not None:
            return _refused("Your suggestion", duplicate, submit.values)
        try:
            suggestion_id = await self._bank.add_suggestion(
                workspace_of(submit.channel),
                quiz.id,
                member_id,
                question,
                self._clock.now(),
                waiting_limit=MAX_PENDING_SUGGESTIONS,  # the check above, held under concurrency
            )
        except TooManyWaiting:
            return await self._too_many_waiting(submit)
        log.info("question suggested: s%d", suggestion_id, extra=about(submit.channel))
        bonus = self._scoring.approved_suggestion
        return Response(
            cards.info(
                "Thanks for the suggestion",
                f"Suggestion #s{suggestion_id} waits for an admin's review; you will be told"
                f" privately what happened. An approved question earns you {bonus} points.",
            )
        )

    async def _waiting(self, submit: FormSubmit) -> list[int]:
        """The ids of the submitting member's suggestions waiting for moderation."""
        return [
            s.id
            for s in await self._bank.pending_suggestions(workspace_of(submit.channel))
            if s.member.member_id == submit.member.member_id
        ]

    async def _too_many_waiting(self, submit: FormSubmit) -> Response:
        waiting = await self._waiting(submit)
        listed = ", ".join(f"#s{n}" for n in waiting)
        return Response(
            refused_form(
                "Your suggestion",
                f"• You have {len(waiting)} suggestions waiting for review ({listed}), the"
                f" most one member may have: suggest again once an admin has decided one.",
                echo(submit.values),
            )
        )

    def _near_duplicate(self, submit: FormSubmit, question: Question) -> QuestionInvalid | None:
        """A suggestion asking nearly what a question of the workspace already asks is
        refused on its question field (the threshold of the bank's own check)."""
        nearest = self._questions.nearest(workspace_of(submit.channel), question.question)
        if nearest is None or nearest[1] < NEAR_DUPLICATE_THRESHOLD:
            return None
        existing, score = nearest
        message = (
            f"nearly the same as the existing question {existing.id!r} ({existing.topic};"
            f" similarity {score:.2f}, the limit is {NEAR_DUPLICATE_THRESHOLD}): ask something"
            " else, or `/quiz flag` that question if it needs a correction"
        )
        return QuestionInvalid([FieldProblem("question", message)])

    async def _pending(self, item: Item, channel: ChannelRef) -> Suggestion | Response:
        """The pending suggestion ``item`` of the channel's workspace, or the refusal: every
        decision and edit goes through here, so no admin reaches another workspace's queue."""
        if item.kind != "s":
            return Response(cards.error(f"Only suggestions (s<N>) can be approved, not {item}."))
        suggestion = await self._bank.get_suggestion(item.number)
        if suggestion is None:
            return Response(cards.error(f"There is no suggestion #{item}."))
        if suggestion.workspace != workspace_of(channel):
            return Response(cards.error(f"Suggestion #{item} belongs to another workspace."))
        if suggestion.state is not SuggestionState.PENDING:
            return Response(cards.info(f"Suggestion #{item} was already {suggestion.state}."))
        return suggestion

    async def _approve(
        self, item: Item, *, by: MemberRef, channel: ChannelRef, platform: Platform
    ) -> Response:
        found = await self._pending(item, channel)
        if isinstance(found, Response):
            return found
        question = found.question.model_copy(update={"id": approved_question_id(found)})
        # approving one's own suggestion is allowed (a lone admin grows the bank too) but
        # pays nothing, or an admin could mint points by suggesting and approving
        own = found.member.member_id == by.member_id
        bonus = 0 if own else self._scoring.approved_suggestion
        approval = await self._bank.approve_suggestion(
            found.id,
            question,
            decided_by=await self._members.member_id(by),
            at=self._clock.now(),
            bonus_points=bonus,
        )
        if approval is None:
            return Response(cards.info(f"Suggestion #{item} was decided meanwhile."))
        self._questions.put_own(OwnQuestion(approval.question_id, found.workspace, question))
        where = await where_asked(self._channels, found.workspace, question.topic)
        await self._tell(
            platform,
            found,
            cards.info(
                "Your question was approved",
                f"Suggestion #{item} ({question.topic}) is now in this workspace's questions."
                f" {where}{_points(bonus)}",
            ),
        )
        log.info("suggestion %s approved", item, extra=about(channel))
        return Response(
            cards.info(
                f"Approved #{item}",
                f"{question.id!r} joins this workspace's questions ({question.topic});"
                + (
                    " no bonus for approving your own suggestion."
                    if own
                    else f" {found.member.label()} gets {bonus} points."
                )
                + f" {where}",
            )
        )

    async def _reject(
        self, item: Item, reason: str, *, by: MemberRef, channel: ChannelRef, platform: Platform
    ) -> Response:
        reason = reason.strip()
        if item.kind == "f":
            flag = await self._bank.get_flag(item.number)
            if flag is None or flag.workspace != workspace_of(channel):
                return Response(cards.error(f"There is no flag #{item} in this workspace."))
            note = f"dismissed: {reason}" if reason else "dismissed"
            if not await self._bank.resolve_flag(flag.id, note, self._clock.now()):
                return Response(cards.info(f"Flag #{item} was already resolved."))
            return Response(cards.info(f"Flag #{item} dismissed", reason))
        found = await self._pending(item, channel)
        if isinstance(found, Response):
            return found
        rejected = await self._bank.reject_suggestion(
            found.id,
            decided_by=await self._members.member_id(by),
            reason=reason or None,
            at=self._clock.now(),
        )
        if not rejected:
            return Response(cards.info(f"Suggestion #{item} was decided meanwhile."))
        because = f" Reason: {reason}" if reason else " No reason was given."
        await self._tell(
            platform,
            found,
            cards.info(
                "Your suggestion was not accepted",
                f"Suggestion #{item} ({found.question.question[:120]}) was rejected.{because}",
            ),
        )
        return Response(cards.info(f"Rejected #{item}", because.strip()))

    async def _tell(self, platform: Platform, suggestion: Suggestion, card: Card) -> None:
        channel = await self._channels.get_channel_by_id(suggestion.channel_id)
        if channel is None:
            return
        try:
            await platform.tell(suggestion.member, channel.ref, card)
        except PlatformError as problem:
            log.warning("could not tell the suggester: %s", problem, extra=about(channel.ref))

    # edits

    async def _edit_form(self, item: Item, channel: ChannelRef) -> Response:
        if item.kind == "s":
            found = await self._pending(item, channel)
            if isinstance(found, Response):
                return found
            values = question_values(found.question)
            form = question_form(EDIT_SUGGESTION_FORM, str(item), f"Edit suggestion {item}", values)
            return Response(cards.info(f"Edit suggestion #{item}"), form=form)
        flag = await self._bank.get_flag(item.number)
        if flag is None or flag.workspace != workspace_of(channel):
            return Response(cards.error(f"There is no flag #{item} in this workspace."))
        question_id = flag.question_id
        question = self._questions.question(workspace_of(channel), question_id)
        if question is None:
            return Response(cards.error("That question is no longer in any pack."))
        form = question_form(
            EDIT_QUESTION_FORM, str(question_id), "Correct the question", question_values(question)
        )
        return Response(cards.info(f"Correct {question.id!r}"), form=form)

    async def _suggestion_edited(self, submit: FormSubmit) -> Response:
        item = parse_item(submit.target)
        found = (
            await self._pending(item, submit.channel)
            if item
            else Response(cards.error("Unknown item."))
        )
        if isinstance(found, Response):
            return found
        try:
            question = question_from_values(
                submit.values, question_id=PLACEHOLDER_ID, keep=found.question
            )
        except QuestionInvalid as invalid:
            return _refused("The edit", invalid, submit.values)
        if not await self._bank.update_suggestion(found.id, question):
            return Response(cards.info(f"Suggestion #{item} was decided meanwhile."))
        edited = await self._bank.get_suggestion(found.id)
        assert edited is not None
        return Response(suggestion_card(edited, "Saved. Approve or reject it:"))

    async def _question_edited(self, submit: FormSubmit) -> Response:
        space = workspace_of(submit.channel)
        question_id = int(submit.target) if submit.target.isdecimal() else -1
        current = self._questions.question(space, question_id)
        if current is None:
            return Response(cards.error("That question is no longer in any pack."))
        try:
            question = question_from_values(submit.values, question_id=current.id, keep=current)
        except QuestionInvalid as invalid:
            return _refused("The correction", invalid, submit.values)
        now = self._clock.now()
        if self._questions.is_own(space, question_id):
            await self._bank.save_own_question(question_id, question, now)
            self._questions.put_own(OwnQuestion(question_id, space, question))
            where = "edited in this workspace's questions"
        else:
            override = Override(question_id, space, question)
            member_id = await self._members.member_id(submit.member)
            await self._bank.save_override(override, member_id=member_id, at=now)
            self._questions.put_override(override)
            where = "corrected for this workspace (the bundled pack file is unchanged)"
        resolved = await self._bank.resolve_flags(space, [question_id], "question edited", now)
        note = f" {resolved} flag(s) resolved." if resolved else ""
        log.info("question %s %s", question.id, where, extra=about(submit.channel))
        return Response(cards.info("Saved", f"{question.id!r} {where}.{note}"))


def _points(bonus: int) -> str:
    return f" +{bonus} points on the leaderboard." if bonus else ""


def _refused(what: str, invalid: QuestionInvalid, values: Mapping[str, str]) -> Response:
    problems = form_problems(invalid)
    listed = "\n".join(f"• {p.message}" for p in problems)
    return Response(refused_form(what, listed, echo(values)), problems=problems)
