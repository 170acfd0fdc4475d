"""QuizEngine: the state machine of a round.

A round is posted (question, thread, hint reaction), collects answers and
votes in its thread, is revealed once, and closes when the next round of its
channel is posted or an admin skips it. Everything to send goes through the
outbox; the engine itself never touches the network.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime

from bot.bank.catalog import WorkspaceCatalog, workspace_of
from bot.bank.rotation import none_eligible, pick_question
from bot.bank.store import StoredQuestion, Workspace
from bot.kernel.bounded_cache import BoundedCache
from bot.kernel.clock import Clock
from bot.kernel.config import QuizConfig
from bot.kernel.emoji import same_emoji
from bot.kernel.errors import Refused
from bot.kernel.events import Reaction, Reply
from bot.kernel.log_context import about
from bot.kernel.metrics import Metrics, NoMetrics
from bot.kernel.models import (
    ActionKind,
    AnswerDraft,
    AnswerOutcome,
    ChannelSettings,
    Delivery,
    FollowUpPolicy,
    OutboxDraft,
    Revealed,
    Round,
    action_key,
    direct_draft,
)
from bot.kernel.owed_since import OwedSince, starts_owing
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card
from bot.rounds.engine_stores import EngineStores
from bot.rounds.timed import timed_actions
from questions.catalog import Catalog
from questions.pack import Difficulty, Question

log = logging.getLogger(__name__)

# What a reveal queues. Follow-ups go out by the reveal at the latest, whatever the policy
# is now (it may have changed since the round started); the unique key drops a repeat.
REVEAL_KINDS = (ActionKind.FOLLOW_UPS, ActionKind.OUTLINE)


def reveal_kinds(channel: ChannelSettings) -> tuple[ActionKind, ...]:
    """What a reveal in ``channel`` queues: with the answer coach on, after the outline, the
    coach's cards that waited for it (``bot.coaching``)."""
    return (*REVEAL_KINDS, ActionKind.COACH_CARDS) if channel.coach else REVEAL_KINDS


class NoQuestions(Refused):
    """No question is eligible (every topic disabled, an unknown topic, or none of the
    channel's difficulty); its text says which and what to change."""


class QuizEngine:
    """The state machine of a round: starts rounds, records answers, reactions and votes,
    reveals outlines, and queues what must be sent in the outbox."""

    def __init__(
        self,
        *,
        store: EngineStores,
        catalog: Catalog,
        clock: Clock,
        config: QuizConfig,
        rng: random.Random,
        wake_outbox: Callable[[], None],
        hand_over: Callable[[ChannelSettings, Revealed], None],
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.catalog = catalog
        self.clock = clock
        self.config = config
        self._rng = rng
        self._wake_outbox = wake_outbox
        self._hand_over = hand_over
        self.metrics: Metrics = metrics or NoMetrics()
        self.questions = WorkspaceCatalog(catalog)
        self._owed = OwedSince(store.meta)
        self._channels: dict[tuple[str, str, str], ChannelSettings] = {}
        self._round_by_thread: BoundedCache[tuple[int, str], int] = BoundedCache(
            config.round_cache_size
        )
        self._open_round: dict[int, int | None] = {}
        # Rounds whose follow-ups were queued (forgetting one only costs a redundant enqueue).
        self._follow_ups_queued: BoundedCache[int, bool] = BoundedCache(config.round_cache_size)

    async def load(self) -> None:
        """Register the catalog's questions in the store and read the workspaces' own
        questions and overrides (at start-up)."""
        self.questions.register_bundled(await self.store.rounds.sync_questions(self.catalog.keys()))
        for own in await self.store.bank.own_questions():
            self.questions.put_own(own)
        for override in await self.store.bank.overrides():
            self.questions.put_override(override)

    def question_for(self, channel: ChannelRef, question_id: int) -> Question | None:
        """The question as the channel's workspace shows it."""
        return self.questions.question(workspace_of(channel), question_id)

    async def known_question(self, channel: ChannelRef, question_id: int) -> Question | None:
        """:meth:`question_for`, and when this process does not know the question, the
        same after reading its texts from the store again: another replica may have
        approved it a moment ago (its round started there)."""
        question = self.question_for(channel, question_id)
        if question is None:
            self.question_stored(question_id, await self.store.bank.stored_question(question_id))
            question = self.question_for(channel, question_id)
        return question

    def question_stored(self, question_id: int, stored: StoredQuestion | None) -> None:
        """The bank's texts of a question as stored now (another replica changed them)."""
        self.questions.put_stored(stored or StoredQuestion(question_id, None, ()))

    async def read_bank(self, workspace: Workspace) -> None:
        """Read the workspace's own questions and overrides again (another replica may
        have approved or corrected one since they were read)."""
        for own in await self.store.bank.own_questions(workspace):
            self.questions.put_own(own)
        for override in await self.store.bank.overrides(workspace):
            self.questions.put_override(override)

    def question_topics(self) -> Mapping[int, str]:
        """The topic of every bundled question, by question id (a workspace's own questions
        are not in private practice)."""
        return self.questions.bundled_topics()

    def question_difficulties(self) -> Mapping[int, Difficulty | None]:
        """The difficulty of every bundled question (None: it has none), by question id."""
        return self.questions.bundled_difficulties()

    # channels

    async def channel(self, ref: ChannelRef) -> ChannelSettings | None:
        cache_key = (ref.platform, ref.workspace, ref.channel_id)
        cached = self._channels.get(cache_key)
        if cached is None:
            cached = await self.store.channels.get_channel(ref)
            if cached is not None:
                self._channels[cache_key] = cached
        return cached

    def know_channels(self, channels: Iterable[ChannelSettings]) -> None:
        """Keep channels read at start-up, so no event's first lookup of its channel
        waits on the store."""
        for settings in channels:
            self.remember_channel(settings)

    async def create_channel(self, ref: ChannelRef) -> ChannelSettings:
        draft = ChannelSettings(
            id=0,
            ref=ref,
            timezone=self.config.default_timezone,
            schedule=self.config.default_schedule,
            reveal_emoji=self.config.reveal_emoji,
            followup_policy=self.config.followup_policy,
            grace_hours=self.config.grace_hours,
        )
        created = await self.store.channels.create_channel(draft)
        if starts_owing(None, created):
            await self._owed.mark(created.id, self.clock.now())
        self._channels[(ref.platform, ref.workspace, ref.channel_id)] = created
        log.info("quiz channel set up", extra=about(ref))
        return created

    async def save_channel(
        self, before: ChannelSettings, after: ChannelSettings
    ) -> ChannelSettings:
        """Store what ``after`` changes of ``before``; the channel as stored now (with what
        another replica changed meanwhile), kept from now on."""
        stored = await self.store.channels.update_channel(before, after)
        if starts_owing(before, stored):
            await self._owed.mark(stored.id, self.clock.now())
        self.remember_channel(stored)
        return stored

    def remember_channel(self, settings: ChannelSettings) -> None:
        """Keep ``settings`` as the channel's (saved here, or read after another replica
        changed them)."""
        ref = settings.ref
        self._channels[(ref.platform, ref.workspace, ref.channel_id)] = settings

    def cached_channel(self, ref: ChannelRef) -> ChannelSettings | None:
        """The channel's settings as kept here, without asking the store."""
        return self._channels.get((ref.platform, ref.workspace, ref.channel_id))

    async def stored_channel(self, ref: ChannelRef) -> ChannelSettings | None:
        """The channel's settings as stored now, kept from now on: another replica may
        have changed them since they were cached."""
        stored = await self.store.channels.get_channel(ref)
        if stored is not None:
            self.remember_channel(stored)
        return stored

    # rounds

    async def start_round(
        self,
        channel: ChannelSettings,
        *,
        scheduled_for: datetime,
        scheduled: bool,
        topic: str | None = None,
        asked_again: Callable[[bool], None] | None = None,
    ) -> Round | None:
        """Record a new round and its actions; None if the slot already has one.

        ``asked_again`` is told whether every eligible question had been asked in the
        channel already, so that the chosen one comes round again."""
        workspace = workspace_of(channel.ref)
        level = channel.difficulty
        eligible = self.questions.choosable(workspace, channel.topics, topic, level)
        if not eligible:
            # the channel may ask only questions another replica approved a moment ago
            await self.read_bank(workspace)
            eligible = self.questions.choosable(workspace, channel.topics, topic, level)
        if not eligible:
            enabled = self.questions.enabled_topics(workspace, channel.topics)
            raise NoQuestions(none_eligible(level, enabled, topic))

        def choose(ask_counts: Mapping[int, int]) -> int:
            chosen = pick_question(eligible, ask_counts, self._rng)
            assert chosen is not None  # some question is eligible
            if asked_again is not None:
                asked_again(ask_counts.get(chosen, 0) > 0)
            return chosen

        actions = [ActionKind.QUESTION, ActionKind.THREAD, ActionKind.HINT]
        if channel.followup_policy is FollowUpPolicy.IMMEDIATELY:
            actions.append(ActionKind.FOLLOW_UPS)
        now = self.clock.now()
        round_ = await self.store.rounds.create_round(
            channel.id,
            choose,
            scheduled_for,
            scheduled=scheduled,
            created_at=now,
            actions=actions,
            later=timed_actions(channel, now),
        )
        if round_ is None:
            return None
        self._open_round[channel.id] = round_.id
        if channel.followup_policy is FollowUpPolicy.IMMEDIATELY:
            self._follow_ups_queued.put(round_.id, True)
        log.info("round #%d recorded", round_.number, extra=about(channel.ref, round_.id))
        self._wake_outbox()
        return round_

    async def skip(self, channel: ChannelSettings) -> Round | None:
        round_ = await self.store.rounds.open_round(channel.id)
        if round_ is None:
            return None
        await self.store.rounds.skip_round(round_.id, self.clock.now())
        self._open_round[channel.id] = None
        self._wake_outbox()  # a round closed before its reveal posts its blind answers
        return round_

    async def retime_open_round(self, channel: ChannelSettings) -> None:
        """The channel's reveal-after or last-call setting changed: give its open round the
        steps the new settings call for (a step queued before under other settings comes
        due at the new time, or does nothing if its setting is now off)."""
        # The settings as saved, with what another replica changed meanwhile (the other
        # of the two settings may have changed there).
        channel = self.cached_channel(channel.ref) or channel
        round_ = await self.store.rounds.open_round(channel.id)
        if round_ is None or round_.revealed_at is not None:
            return
        # Keyed by the change's time: a step queued under the earlier settings stays queued
        # and, when it comes due, follows the settings then (the same as this one).
        changed = self.clock.now().strftime("%Y%m%dT%H%M%S%f")
        await self.queue(
            [
                OutboxDraft(round_.id, step.kind, f"{action_key(round_.id, step.kind)}:{changed}")
                for step in timed_actions(channel, round_.created_at)
            ]
        )

    async def queue(self, drafts: Sequence[OutboxDraft]) -> None:
        """Queue outbox actions, a round's or none's (a DM's cards, a practice timer), in
        one transaction (a key already queued stays as it is) and wake the outbox."""
        if await self.store.outbox.enqueue(drafts, self.clock.now()):
            self._wake_outbox()

    async def reveal(self, channel: ChannelSettings, round_: Round) -> bool:
        """Queue the outline (and pending follow-ups); True only the first time.

        Raises ``Refused`` for a round an admin skipped: its outline stays unposted."""
        if self.was_skipped(round_):
            raise Refused(
                f"Question #{round_.number} was closed with `/quiz skip`, so its outline stays"
                " unposted."
            )
        drafts = [
            OutboxDraft(round_.id, kind, action_key(round_.id, kind))
            for kind in reveal_kinds(channel)
        ]
        revealed = await self.store.rounds.reveal_round(round_.id, self.clock.now(), drafts)
        if revealed is None:
            return False
        self._revealed(channel, revealed)
        return True

    def _revealed(self, channel: ChannelSettings, revealed: Revealed) -> None:
        self._follow_ups_queued.put(revealed.round.id, True)
        self._hand_over(channel, revealed)

    @staticmethod
    def was_skipped(round_: Round) -> bool:
        """Whether an admin closed this round with `/quiz skip` before its reveal."""
        return round_.skipped_at is not None

    # inbound

    async def on_reply(self, event: Reply, channel: ChannelSettings) -> AnswerOutcome | None:
        """Record a member's reply in a round's thread of ``channel`` (the quiz channel the
        reply was posted in). Returns None when it is not an answer."""
        round_id = await self._round_id_for_thread(channel.id, event.thread.thread_id)
        if round_id is None:
            return None
        now = self.clock.now()
        if event.edited:  # the answer's text stays current, even after the round closed
            await self.store.answers.edit_answer(
                round_id, event.message.message_id, event.text, now
            )
            return None
        if not await self._is_open(channel.id, round_id):
            return None
        member_id = await self.store.answers.answer_author(
            event.member, round_id, event.message.message_id
        )
        if member_id is None:  # an erased answer delivered again
            self.metrics.duplicate_event(event.channel.platform)
            return AnswerOutcome.DUPLICATE
        rules = self.config.scoring
        result = await self.store.answers.record_answer(
            AnswerDraft(
                event_id=event.event_id,
                platform=event.channel.platform,
                round_id=round_id,
                channel_id=channel.id,
                member_id=member_id,
                message_id=event.message.message_id,
                text=event.text,
                at=now,
                points_for_answer=rules.answer,
                bonus_before_reveal=rules.before_reveal_bonus,
            )
        )
        self.metrics.answer_recorded(event.channel.platform, result.outcome.value)
        if result.outcome is AnswerOutcome.DUPLICATE:
            self.metrics.duplicate_event(event.channel.platform)
        if (
            channel.followup_policy is FollowUpPolicy.AFTER_FIRST_ANSWER
            and round_id not in self._follow_ups_queued
        ):
            # A duplicate too: the answer may have been saved by a delivery whose queuing of
            # the follow-ups then failed, and this redelivery is their only chance before the
            # reveal. The unique key makes queuing them again a no-op; remembered once done.
            draft = OutboxDraft(
                round_id, ActionKind.FOLLOW_UPS, action_key(round_id, ActionKind.FOLLOW_UPS)
            )
            if await self.store.outbox.enqueue([draft], now):
                self._wake_outbox()
            self._follow_ups_queued.put(round_id, True)
        return result.outcome

    async def send_direct(self, destination: ChannelRef, card: Card, key: str) -> None:
        """Queue ``card`` for ``destination`` (a member's DM channel) in the outbox under
        ``key``, which says what it is (e.g. "practice:7:outline"): sent once, however
        often this is called with that key, across a crash too."""
        await self.queue([direct_draft(destination, card, key)])

    async def on_reaction(self, event: Reaction, channel: ChannelSettings) -> bool:
        """Apply a reveal or vote reaction in ``channel`` (the quiz channel it was made in),
        recording its event id with its effect; False when it changed nothing (any other
        emoji, a message that is no question or answer, a round already revealed). Raises
        :class:`~bot.kernel.errors.DuplicateDelivery` for a redelivery of a reaction that had
        its effect."""
        delivery = Delivery(event.channel.platform, event.event_id)
        if same_emoji(event.emoji, channel.reveal_emoji) and await self._reveal_reaction(
            channel, event, delivery
        ):
            return True
        if same_emoji(event.emoji, self.config.vote_emoji):
            return await self._vote_reaction(channel, event, delivery)
        return False

    async def _reveal_reaction(
        self, channel: ChannelSettings, event: Reaction, delivery: Delivery
    ) -> bool:
        message = event.message.message_id
        if channel.reveal_min_reactors <= 1:
            # The round is found, revealed and its actions queued in one transaction.
            revealed = await self.store.rounds.reveal_round_by_message(
                channel.id, message, self.clock.now(), reveal_kinds(channel), delivery=delivery
            )
            if revealed is None:
                return False
            self._revealed(channel, revealed)
            return True
        round_ = await self.store.rounds.round_by_message(channel.id, message)
        if round_ is None or round_.revealed_at is not None or self.was_skipped(round_):
            return False
        member_id = await self.store.members.member_id(event.member)
        reactors = await self.store.rounds.add_reveal_reactor(
            round_.id, member_id, at=self.clock.now(), delivery=delivery
        )
        if reactors >= channel.reveal_min_reactors:
            await self.reveal(channel, round_)
        return True

    async def _vote_reaction(
        self, channel: ChannelSettings, event: Reaction, delivery: Delivery
    ) -> bool:
        answer = await self.store.answers.answer_by_message_in_channel(
            channel.id, event.message.message_id
        )
        if answer is None:
            return False
        voter_id = await self.store.members.member_id(event.member)
        if voter_id == answer.member_id:
            return False  # no votes for one's own answer
        rules = self.config.scoring
        return await self.store.answers.record_vote(
            answer.id,
            voter_id,
            self.clock.now(),
            per_vote=rules.per_vote,
            max_votes=rules.max_votes,
            delivery=delivery,
        )

    async def _round_id_for_thread(self, channel_id: int, thread: str) -> int | None:
        cached = self._round_by_thread.get((channel_id, thread))
        if cached is not None:
            return cached
        round_ = await self.store.rounds.round_by_thread(channel_id, thread)
        if round_ is None:
            return None
        self._round_by_thread.put((channel_id, thread), round_.id)
        return round_.id

    async def _is_open(self, channel_id: int, round_id: int) -> bool:
        """Whether ``round_id`` is the channel's open round: so when this process knows it
        to be; otherwise as the store says, since another replica may have opened it."""
        if self._open_round.get(channel_id) == round_id:
            return True
        open_round = await self.store.rounds.open_round(channel_id)
        self._open_round[channel_id] = open_round.id if open_round else None
        return self._open_round[channel_id] == round_id
