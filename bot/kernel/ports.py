"""The seams of the core: what adapters and stores implement.

``bot/`` never imports a platform library or a database driver; it talks to
them only through these protocols.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol, runtime_checkable

from bot.bank.store import BankStore
from bot.kernel.events import Event
from bot.kernel.models import (
    ActionKind,
    AnswerDraft,
    AnswerRecord,
    AnswerResult,
    ChannelSettings,
    ChannelStats,
    Delivery,
    LeaderboardRow,
    MemberHistory,
    OutboxAction,
    OutboxDraft,
    PruneBatch,
    Revealed,
    Round,
)
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.kernel.render import Card, Image, Response
from bot.learning.store import LearningStore
from bot.practice.store import PracticeStore
from bot.recaps.store import RecapStore
from bot.reminders.store import ReminderStore
from questions.catalog import QuestionKey


class Clock(Protocol):
    """The time source the core and the store use; tests inject a fake one."""

    def now(self) -> datetime:
        """The current time, timezone-aware, in UTC."""
        ...


class Platform(Protocol):
    """A chat platform as the core sees it. Every method may raise ``PlatformError``.

    ``key`` is the outbox key of the action: adapters attach it to the message
    (Discord nonce, Slack metadata) so that :meth:`find_sent` can find a message
    whose sending was not recorded before a crash.
    """

    name: str
    admin_rule: str  # who is a quiz admin, as a refused member is told

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef: ...

    async def open_thread(self, message: MessageRef, title: str, *, key: str) -> ThreadRef: ...

    async def reply(self, thread: ThreadRef, card: Card, *, key: str) -> MessageRef: ...

    async def react(self, message: MessageRef, emoji: str) -> None: ...

    async def tell(self, member: MemberRef, channel: ChannelRef, card: Card) -> None:
        """Show ``card`` to ``member`` only (ephemeral); outside the outbox."""
        ...

    async def find_sent(
        self, channel: ChannelRef, key: str, *, thread: ThreadRef | None = None
    ) -> MessageRef | None:
        """The message sent earlier with ``key``, if any; ``thread`` is where a reply
        would have been posted (None: the channel itself)."""
        ...

    async def is_admin(self, member: MemberRef, channel: ChannelRef) -> bool: ...

    async def link(self, message: MessageRef, thread: ThreadRef | None = None) -> str | None:
        """A URL that opens ``message`` (posted in ``thread``, if given); None where the
        platform has no links (the console)."""
        ...


@runtime_checkable
class FindsSentSince(Protocol):
    """A platform whose history search can start at a time (Slack's ``oldest``) looks
    through the round's whole time span instead of a fixed number of messages."""

    async def find_sent_since(
        self,
        channel: ChannelRef,
        key: str,
        *,
        thread: ThreadRef | None = None,
        since: datetime | None,
    ) -> MessageRef | None:
        """As :meth:`Platform.find_sent`, among the messages since ``since``."""
        ...


@runtime_checkable
class PacedSends(Protocol):
    """A platform that spaces the messages of one channel (Slack: about one a second)
    says how long the next one would wait: the outbox then puts the action off until
    then instead of holding a send slot while the platform sleeps inside the send."""

    def send_delay(self, channel: ChannelRef) -> float:
        """Seconds until a message to ``channel`` would start without waiting (0: now)."""
        ...


@runtime_checkable
class SendSlots(Protocol):
    """A platform that paces all its requests itself (Discord: one budget a second for the
    process) keeps the budget in use only with enough sends in flight to cover each
    request's round trip: it says how many rounds the outbox may send at once."""

    @property
    def send_slots(self) -> int:
        """Rounds to send at once (0: the outbox's own number is enough)."""
        ...


@runtime_checkable
class SeparateImages(Protocol):
    """A platform that sends a card's picture as a message of its own after the text (Slack
    uploads it as a file) rather than in it. A recap's outbox action then sends its chart as
    a step of its own: a kill between text and chart, or an upload that fails for a while,
    is retried until the chart is out, and each goes out once."""

    async def post_image(self, channel: ChannelRef, image: Image, *, key: str) -> MessageRef | None:
        """Upload ``image`` into ``channel`` alone. Raises ``PlatformError`` when it may work
        later (the caller retries); None when the platform refuses it for good (e.g. a
        missing permission: logged, the text stands without it)."""
        ...

    async def find_image(self, channel: ChannelRef, image: Image, *, key: str) -> MessageRef | None:
        """The upload of ``image`` that an earlier attempt under ``key`` made, if any."""
        ...


@runtime_checkable
class ReactionEmoji(Protocol):
    """A platform that can react with some emoji only, and names them its own way,
    provides this to check a reveal emoji when an admin configures it."""

    async def reaction_emoji(self, emoji: str, channel: ChannelRef) -> str:
        """``emoji`` as the core should keep it in ``channel`` (the form reactions arrive
        in); raises ``Refused`` with a clear message when the platform cannot react with it."""
        ...


@runtime_checkable
class DirectMessages(Protocol):
    """A platform where the bot can write to a member privately (Slack IM, Discord DM,
    the console's ``:dm``); private practice and reminders need it."""

    async def open_direct(self, member: MemberRef) -> ChannelRef:
        """The member's direct-message channel with the bot (opened if need be); posts
        to it go through :meth:`Platform.post` like any channel's."""
        ...


class ChannelStore(Protocol):
    """The channels' quiz settings, and small key/value facts of the installation."""

    async def get_channel(self, ref: ChannelRef) -> ChannelSettings | None: ...

    async def get_channel_by_id(self, channel_id: int) -> ChannelSettings | None: ...

    async def create_channel(self, settings: ChannelSettings) -> ChannelSettings:
        """Insert (``settings.id`` is ignored) or return the existing row for ``settings.ref``."""
        ...

    async def update_channel(self, settings: ChannelSettings) -> None: ...

    async def list_channels(self) -> list[ChannelSettings]: ...

    # small key/value facts (e.g. the hash of synced Discord commands)
    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...


class ChangeKind(StrEnum):
    """What a change another process made is to (``ChannelChanges``), and what its number
    names."""

    CHANNEL = "channel"  # a channel's settings, by channel id
    QUESTION = "question"  # a question's texts in the bank (its own, overrides), by question id
    REMINDER = "reminder"  # a member's daily reminder, by member id


class ChannelListener(Protocol):
    """Hearing of changes, as :meth:`ChannelChanges.listen_changes` started it."""

    async def alive(self) -> bool:
        """Whether it still hears changes (asks the database); False once the connection
        is lost, and from then on."""
        ...

    async def close(self) -> None:
        """Stop hearing changes and let go of the connection."""
        ...


@runtime_checkable
class ChannelChanges(Protocol):
    """A store that several processes share (PostgreSQL behind replicas) tells each of
    them of the channels, bank questions and reminders another one changed, so their
    cached settings, questions and schedules follow. A store of one process (SQLite)
    has no need of it and offers none."""

    async def channel_versions(self) -> dict[int, int]:
        """Every channel's version: a number that changes whenever its settings do."""
        ...

    async def question_versions(self) -> dict[int, int]:
        """The version of every question the bank has texts of (a workspace's own
        question, a bundled one a workspace overrides): a number that changes whenever
        any of its texts does."""
        ...

    async def reminder_versions(self) -> dict[int, int]:
        """Every member's reminder's version, by member id (absent: none set)."""
        ...

    async def listen_changes(
        self, changed: Callable[[ChangeKind, int], None], lost: Callable[[], None]
    ) -> ChannelListener:
        """From now until the listener is closed, call ``changed(kind, number)`` for
        every change any process commits (a channel by its id, a question by its id, a
        reminder by its member's id), and ``lost()`` once if the connection it listens
        on is lost (changes are then missed). Raises ``QuizError`` when it cannot listen."""
        ...


@runtime_checkable
class LeasedClaims(Protocol):
    """A store whose ``due_actions`` claims what it returns for a lease (replicas): an
    action another replica claimed falls due again when its lease ends."""

    @property
    def outbox_lease(self) -> timedelta:
        """How long a claim holds an action off the other replicas."""
        ...


class RoundStore(Protocol):
    """Rounds, the questions they ask, and the outbox of actions each round sends."""

    # questions
    async def sync_questions(self, questions: Sequence[QuestionKey]) -> dict[tuple[str, str], int]:
        """Register questions (idempotent); returns the database id of each (pack, question)."""
        ...

    # rounds
    async def create_round(
        self,
        channel_id: int,
        choose_question: Callable[[Mapping[int, int]], int],
        scheduled_for: datetime,
        *,
        scheduled: bool,
        created_at: datetime,
        actions: Sequence[ActionKind],
    ) -> Round | None:
        """Atomically: pick the question with ``choose_question`` (given how many of the
        channel's rounds asked each question id; absent: never), close the channel's open round,
        insert the new one with the next round number, and enqueue its actions with
        keys ``round:<id>:<kind>``. The pick is in the transaction, so two rounds
        created at once see each other's question.

        Returns None, changing nothing, when the channel already has a round for
        ``scheduled_for`` (the UNIQUE(channel, scheduled_for) key).
        """
        ...

    async def get_round(self, round_id: int) -> Round | None: ...

    async def round_in_channel(self, round_id: int) -> tuple[Round, ChannelSettings | None] | None:
        """The round and its channel (None when the channel is gone), read together."""
        ...

    async def open_round(self, channel_id: int) -> Round | None: ...

    async def latest_round(self, channel_id: int) -> Round | None: ...

    async def latest_round_times(self) -> dict[int, datetime]:
        """Every channel's latest round's slot (``scheduled_for``), in one query."""
        ...

    async def round_by_message(self, channel_id: int, message: str) -> Round | None:
        """The round whose question is the platform message ``message``."""
        ...

    async def round_by_thread(self, channel_id: int, thread: str) -> Round | None: ...

    async def reveal_round(
        self, round_id: int, at: datetime, drafts: Sequence[OutboxDraft]
    ) -> Revealed | None:
        """Mark the round revealed and queue ``drafts`` in one transaction; None (and
        nothing queued) when it was revealed before or skipped."""
        ...

    async def reveal_round_by_message(
        self,
        channel_id: int,
        message: str,
        at: datetime,
        kinds: Sequence[ActionKind],
        *,
        delivery: Delivery,
    ) -> Revealed | None:
        """Reveal the round whose question is the platform message ``message``, queue its
        actions of ``kinds`` and record ``delivery``, in one transaction. None, recording
        nothing, when no round has that question or it was revealed before or skipped; raises
        :class:`~bot.kernel.errors.DuplicateDelivery` when ``delivery`` was recorded before."""
        ...

    async def add_reveal_reactor(
        self, round_id: int, member_id: int, *, at: datetime, delivery: Delivery | None = None
    ) -> int:
        """Record a distinct member reacting with the reveal emoji (and ``delivery``, when a
        member was added); returns the count. Raises
        :class:`~bot.kernel.errors.DuplicateDelivery` when ``delivery`` was recorded before."""
        ...

    async def skip_round(self, round_id: int, at: datetime) -> bool:
        """Close the open round ``round_id`` for `/quiz skip`; unrevealed, it is marked
        skipped (``skipped_at``) in the same statement and never revealed after, and the
        post of its waiting blind answers (``ActionKind.BLIND_ANSWERS``) is queued in the
        same transaction, as ``create_round`` does for the round it closes. False,
        changing nothing, when the round is not open."""
        ...

    async def rounds_with_unposted_blind_answers(self, channel_id: int) -> list[Round]:
        """The channel's rounds holding blind answers not posted yet, oldest first."""
        ...

    # outbox
    async def enqueue(self, drafts: Sequence[OutboxDraft], at: datetime) -> int:
        """Insert actions whose key is new; returns how many were inserted."""
        ...

    async def due_actions(
        self, now: datetime, limit: int = 100, *, platforms: Collection[str] | None = None
    ) -> list[OutboxAction]:
        """Pending actions whose next attempt is due, oldest first; with ``platforms``,
        only those of channels on these platforms. A backend shared by several replicas
        claims what it returns for a lease, so the others skip those actions until
        the lease ends or the action is retried, failed or completed."""
        ...

    async def next_due_after(
        self, after: datetime, *, platforms: Collection[str] | None = None
    ) -> datetime | None:
        """The earliest time after ``after`` when a pending action (of channels on
        ``platforms``) falls due; None when none does."""
        ...

    async def prune_done_actions(self, before: datetime, limit: int) -> PruneBatch:
        """Delete completed actions older than ``before`` that nothing can enqueue again,
        scanning at most ``limit`` of them; call again while ``more`` is True."""
        ...

    async def postpone_actions(
        self, action_ids: Sequence[int], until: datetime, *, at: datetime
    ) -> None:
        """Make the pending ones of these actions due at ``until``, counting no attempt
        (the platform's pacing takes no message to their channel before then)."""
        ...

    async def begin_attempt(self, action_id: int, at: datetime) -> OutboxAction | None:
        """Count an attempt before sending; returns the action with its new attempt count,
        or None when it is not this process's to send any more: no longer pending, or
        (replicas) another replica took it over after this one's claim ran out."""
        ...

    async def complete_action(self, action_id: int, result_ref: str | None, at: datetime) -> None:
        """Mark done and store the result; a QUESTION result becomes the round's
        ``question_message``, a THREAD result its ``thread``."""
        ...

    async def complete_and_begin(
        self, done_id: int, result_ref: str | None, next_id: int, at: datetime
    ) -> OutboxAction | None:
        """:meth:`complete_action` of one action and :meth:`begin_attempt` of the next, in
        one transaction (one round trip where a round sends several actions); None, as
        from ``begin_attempt``, when the next is no longer this process's to send."""
        ...

    async def retry_action(
        self, action_id: int, error: str, next_attempt_at: datetime, *, at: datetime
    ) -> None: ...

    async def fail_action(self, action_id: int, error: str, at: datetime) -> None: ...

    async def fail_channel_actions(self, channel_id: int, error: str, at: datetime) -> int: ...


class MemberStore(Protocol):
    """Members, their answers and votes, and the inbound event ids already handled."""

    async def member_id(self, ref: MemberRef) -> int:
        """The member's id, creating the member (and updating the display name) as needed."""
        ...

    async def record_answer(self, draft: AnswerDraft) -> AnswerResult:
        """Record the event id and the answer in one transaction (group-committed with
        concurrent calls); returns only after the commit."""
        ...

    async def edit_answer(
        self, round_id: int, message_id: str, text: str, at: datetime
    ) -> bool: ...

    async def answer_by_message_in_channel(
        self, channel_id: int, message_id: str
    ) -> AnswerRecord | None: ...

    async def round_answers(self, round_id: int) -> list[AnswerRecord]:
        """Answers of a round in the order they were given."""
        ...

    async def waiting_blind_answers(self, round_id: int) -> list[AnswerRecord]:
        """The round's blind answers not posted yet (see bot.blind.posts), oldest first."""
        ...

    async def edit_blind_answer(
        self, round_id: int, placeholder: str, text: str, at: datetime
    ) -> bool:
        """Change the text of a blind answer not posted yet (still ``placeholder``), only
        while its round is open and not revealed: False when there is none, or too late."""
        ...

    async def withdraw_answer(self, answer_id: int, placeholder: str) -> bool:
        """Delete a blind answer that is not posted (still has ``placeholder``): one that was
        written after the round was revealed. False when it was posted meanwhile."""
        ...

    async def answer_posted(self, answer_id: int, placeholder: str, message_id: str) -> bool:
        """A blind answer was posted as ``message_id``: it replaces the answer's
        ``placeholder`` message id, so votes on the posted message count for it. False when
        the answer no longer has that placeholder (recorded already)."""
        ...

    async def record_vote(
        self,
        answer_id: int,
        voter_id: int,
        at: datetime,
        *,
        per_vote: int,
        max_votes: int,
        delivery: Delivery | None = None,
    ) -> bool:
        """Count a peer vote once per voter (recording ``delivery`` with it); the answer's
        points become ``base + per_vote * min(votes, max_votes)``. False for a repeated
        vote; raises :class:`~bot.kernel.errors.DuplicateDelivery` when ``delivery`` was recorded
        before."""
        ...

    # inbound events
    async def mark_event_processed(self, platform: str, event_id: str, at: datetime) -> bool:
        """False when this event id was already recorded (a duplicate delivery)."""
        ...

    async def event_processed(self, platform: str, event_id: str) -> bool:
        """True when this event id was recorded (read only: nothing is marked)."""
        ...

    async def prune_events(self, before: datetime, limit: int) -> PruneBatch:
        """Forget up to ``limit`` inbound event ids recorded before ``before``."""
        ...


class ReportStore(Protocol):
    """Read-only reports over every aggregate."""

    async def leaderboard(
        self, channel_id: int, since: datetime | None, limit: int = 10
    ) -> list[LeaderboardRow]:
        """Top members by points (answers and bonuses at or after ``since``), ties broken by more
        answers, then the earlier first answer, then member id."""
        ...

    async def member_history(self, channel_id: int, member_id: int) -> MemberHistory: ...

    async def channel_stats(self, channel_id: int) -> ChannelStats: ...

    async def outbox_counts(self) -> dict[str, int]:
        """Outbox actions of every channel by state ("pending", "done", "failed")."""
        ...


class Store(ChannelStore, RoundStore, MemberStore, ReportStore, Protocol):
    """Persistence of the quiz, aggregate by aggregate; a backend implements each part.
    Every write is committed before the call returns; every time written is one passed
    in (the injected clock), never the wall clock."""

    @property
    def learning(self) -> LearningStore:
        """Grades, FSRS cards and goals (the learning loop's own aggregate)."""
        ...

    @property
    def bank(self) -> BankStore:
        """Suggestions, workspace questions, overrides, flags and bonuses (its own aggregate)."""
        ...

    @property
    def recaps(self) -> RecapStore:
        """Recap schedules and recaps (the recap aggregate)."""
        ...

    @property
    def practice(self) -> PracticeStore:
        """Private practice sessions (their own aggregate)."""
        ...

    @property
    def reminders(self) -> ReminderStore:
        """Members' daily review reminders (their own aggregate)."""
        ...

    async def close(self) -> None: ...


EventHandler = Callable[[Event], Awaitable[Response | None]]


class Connector(Protocol):
    """A platform adapter's life cycle, driven by the runtime.

    ``start`` connects and begins delivering inbound events to ``handler``
    (it returns once connected; delivery goes on in the background until
    ``stop``). ``connected`` feeds the health check.
    """

    async def start(self, handler: EventHandler) -> None: ...

    async def stop(self) -> None: ...

    @property
    def connected(self) -> bool: ...


class WorkspaceSwitch(Protocol):
    """Stops and restarts every quiz channel of one workspace: the app was uninstalled
    (or its token revoked) there, and later installed again. Both are idempotent."""

    async def disable_workspace(self, platform: str, workspace: str) -> int:
        """Disable the workspace's quiz channels; how many were running until now."""
        ...

    async def enable_workspace(self, platform: str, workspace: str) -> int:
        """Enable again the channels a removal disabled; how many."""
        ...


@runtime_checkable
class WatchesInstalls(Protocol):
    """A connector that learns of installs and removals of the app (Slack's OAuth flow,
    ``app_uninstalled``) and tells the core through a :class:`WorkspaceSwitch`."""

    def watch_installs(self, switch: WorkspaceSwitch) -> None: ...


@runtime_checkable
class EndsForGood(Protocol):
    """A connector whose connection can end for good (a rejected token, a gateway that
    gave up). ``until_ended`` returns the one-line cause; the runtime then stops the
    bot and exits non-zero, so a supervisor restarts it or an operator sees why."""

    async def until_ended(self) -> str: ...
