"""The rounds feature's store ports: rounds, answers and votes, and the reports over them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Protocol

from bot.kernel.models import (
    ActionKind,
    AnswerDraft,
    AnswerRecord,
    AnswerResult,
    ChannelSettings,
    ChannelStats,
    Delivery,
    LaterAction,
    LeaderboardRow,
    MemberHistory,
    OutboxDraft,
    Revealed,
    Round,
)
from bot.kernel.refs import MemberRef
from questions.catalog import QuestionKey


class RoundStore(Protocol):
    """Rounds and the questions they ask."""

    async def sync_questions(self, questions: Sequence[QuestionKey]) -> dict[tuple[str, str], int]:
        """Register questions (idempotent); returns the database id of each (pack, question)."""
        ...

    async def create_round(
        self,
        channel_id: int,
        choose_question: Callable[[Mapping[int, int]], int],
        scheduled_for: datetime,
        *,
        scheduled: bool,
        created_at: datetime,
        actions: Sequence[ActionKind],
        later: Sequence[LaterAction] = (),
    ) -> Round | None:
        """Atomically: pick the question with ``choose_question`` (given how many of the
        channel's rounds asked each question id; absent: never), reveal the channel's open
        round unless it was revealed already (queueing its follow-ups and outline, as a
        reveal does), close it, insert the new one with the next round number, and enqueue
        its actions with keys ``round:<id>:<kind>``, due now (and its notice step when
        members of the channel asked for notices), and the ``later`` ones at their times.
        The pick is in the transaction, so two rounds created at once see each
        other's question.

        Returns None, changing nothing, when the channel already has a round for
        ``scheduled_for`` (the UNIQUE(channel, scheduled_for) key).
        """
        ...

    async def get_round(self, round_id: int) -> Round | None: ...

    async def round_by_number(self, channel_id: int, number: int) -> Round | None:
        """The channel's round of that number (as its question card shows it)."""
        ...

    async def latest_revealed_round(self, channel_id: int, since: datetime) -> Round | None:
        """The channel's last round revealed, among those created at or after ``since``."""
        ...

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


class AnswerStore(Protocol):
    """Members' answers to rounds, and their peers' votes."""

    async def answer_author(self, ref: MemberRef, round_id: int, message_id: str) -> int | None:
        """The id of the member whose reply ``message_id`` in the round is, as ``store.members``
        gives it; None, writing nothing (not their name either), when it is an answer an erasure
        deleted. ``record_answer`` refuses such a message too: this spares the name."""
        ...

    async def record_answer(self, draft: AnswerDraft) -> AnswerResult:
        """Record the event id and the answer in one transaction (group-committed with
        concurrent calls); returns only after the commit."""
        ...

    async def edit_answer(
        self, round_id: int, message_id: str, text: str, at: datetime
    ) -> bool: ...

    async def answer_by_id(self, answer_id: int) -> AnswerRecord | None: ...

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


class ReportStore(Protocol):
    """Read-only reports over rounds and answers: leaderboards, histories, totals."""

    async def leaderboard(
        self, channel_id: int, since: datetime | None, limit: int = 10
    ) -> list[LeaderboardRow]:
        """Top members by points (answers and bonuses at or after ``since``), ties broken by more
        answers, then the earlier first answer, then member id."""
        ...

    async def member_history(self, channel_id: int, member_id: int) -> MemberHistory: ...

    async def channel_stats(self, channel_id: int) -> ChannelStats: ...
