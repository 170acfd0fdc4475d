"""Answers and votes (the ``AnswerStore`` port); members' ids are ``storage.sql.members``.

Answers are group-committed (``storage.group_commit``); how a batch is written is each
backend's own (``WriteAnswers``), by the scoring rule of ``storage.sql.scoring``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.blind.posts import PLACEHOLDER_PREFIX
from bot.kernel.bounded_cache import BoundedCache
from bot.kernel.models import AnswerDraft, AnswerRecord, AnswerResult, Delivery
from bot.kernel.refs import MemberRef
from storage.errors import NotFoundError
from storage.group_commit import GroupCommitter
from storage.records import ANSWER_COLUMNS, answer_from_row
from storage.sql.deliveries import record_delivery_in, refuse_duplicate_in
from storage.sql.members import Members
from storage.sql.session import Session, SqlDatabase
from storage.timestamps import to_db

# Writes a batch of drafts (except the indexes rejected) in the open transaction.
WriteAnswers = Callable[
    [Session, Sequence[AnswerDraft], Mapping[int, Exception]],
    Awaitable[list[AnswerResult | Exception]],
]


class Answers:
    """Members' answers (group-committed) and votes.

    ``round_channels`` is which channel each round belongs to, shared with the rounds
    aggregate (which records it). ``round_lock`` is how a change of a blind answer reads
    its round: a backend whose transactions run concurrently locks the row, so a reveal
    committing meanwhile is seen."""

    def __init__(
        self,
        db: SqlDatabase,
        round_channels: BoundedCache[int, int],
        write_answers: WriteAnswers,
        *,
        members: Members,
        round_lock: str = "",
    ) -> None:
        self._db = db
        self._round_channels = round_channels
        self._write_answers = write_answers
        self._round_lock = round_lock
        self._members = members
        self.committer: GroupCommitter[AnswerDraft, AnswerResult] = GroupCommitter(
            self._write_answer_batch, name="answers"
        )

    @property
    def answer_batches(self) -> int:
        """How many group-commit batches of answers were written so far."""
        return self.committer.batches

    async def answer_author(self, ref: MemberRef, round_id: int, message_id: str) -> int | None:
        cached = self._members.cache.get((ref.platform, ref.workspace, ref.member_id))
        if cached is not None and ref.display_name in ("", cached[1]):
            return cached[0]  # an erasure on this store forgot the member: not them
        erased = await self._db.fetch_one(
            "SELECT 1 FROM erased_answers WHERE round_id = ? AND message_id = ?",
            (round_id, message_id),
        )
        return None if erased is not None else await self._members.member_id(ref)

    async def record_answer(self, draft: AnswerDraft) -> AnswerResult:
        return await self.committer.submit(draft)

    async def _write_answer_batch(
        self, drafts: Sequence[AnswerDraft]
    ) -> list[AnswerResult | Exception]:
        rejected = await self._reject_unknown_references(drafts)
        async with self._db.transaction() as session:
            return await self._write_answers(session, drafts, rejected)

    async def _reject_unknown_references(
        self, drafts: Sequence[AnswerDraft]
    ) -> dict[int, Exception]:
        """Drafts naming a missing round or member fail alone instead of failing the batch."""
        unknown_rounds = {d.round_id for d in drafts if d.round_id not in self._round_channels}
        unknown_members = {d.member_id for d in drafts} - self._members.known
        if unknown_rounds:
            marks = ", ".join("?" * len(unknown_rounds))
            rows = await self._db.fetch(
                f"SELECT id, channel_id FROM rounds WHERE id IN ({marks})", tuple(unknown_rounds)
            )
            self._round_channels.update((row[0], row[1]) for row in rows)
        if unknown_members:
            marks = ", ".join("?" * len(unknown_members))
            rows = await self._db.fetch(
                f"SELECT id FROM members WHERE id IN ({marks})", tuple(unknown_members)
            )
            self._members.known.update(row[0] for row in rows)
        rejected: dict[int, Exception] = {}
        for index, draft in enumerate(drafts):
            channel_id = self._round_channels.get(draft.round_id)
            if channel_id is None:
                rejected[index] = NotFoundError(f"no round with id {draft.round_id}")
            elif channel_id != draft.channel_id:
                rejected[index] = ValueError(
                    f"round {draft.round_id} belongs to channel {channel_id},"
                    f" not {draft.channel_id}"
                )
            elif draft.member_id not in self._members.known:
                rejected[index] = NotFoundError(f"no member with id {draft.member_id}")
        return rejected

    async def edit_answer(self, round_id: int, message_id: str, text: str, at: datetime) -> bool:
        changed = await self._db.change(
            "UPDATE answers SET text = ?, edited_at = ? WHERE round_id = ? AND message_id = ?",
            (text, to_db(at), round_id, message_id),
        )
        return changed == 1

    async def edit_blind_answer(
        self, round_id: int, placeholder: str, text: str, at: datetime
    ) -> bool:
        # Only while its round is open and not revealed: the reveal or the close reads the
        # waiting answers to post them after it committed, so no change lands after that read.
        changed = await self._db.change(
            "UPDATE answers SET text = ?, edited_at = ? WHERE round_id = ? AND message_id = ?"
            " AND EXISTS (SELECT 1 FROM rounds r WHERE r.id = answers.round_id"
            f" AND r.state = 'open' AND r.revealed_at IS NULL{self._round_lock})",
            (text, to_db(at), round_id, placeholder),
        )
        return changed == 1

    async def _answers_where(self, condition: str, params: Sequence[Any]) -> list[AnswerRecord]:
        rows = await self._db.fetch(
            f"SELECT {ANSWER_COLUMNS} FROM answers a JOIN members m ON m.id = a.member_id"
            f" WHERE {condition}",
            params,
        )
        return [answer_from_row(row) for row in rows]

    async def answer_by_id(self, answer_id: int) -> AnswerRecord | None:
        found = await self._answers_where("a.id = ?", (answer_id,))
        return found[0] if found else None

    async def answer_by_message_in_channel(
        self, channel_id: int, message_id: str
    ) -> AnswerRecord | None:
        found = await self._answers_where(
            "a.round_id IN (SELECT id FROM rounds WHERE channel_id = ?) AND a.message_id = ?"
            " ORDER BY a.id LIMIT 1",
            (channel_id, message_id),
        )
        return found[0] if found else None

    async def round_answers(self, round_id: int) -> list[AnswerRecord]:
        return await self._answers_where("a.round_id = ? ORDER BY a.answered_at, a.id", (round_id,))

    async def waiting_blind_answers(self, round_id: int) -> list[AnswerRecord]:
        # substr, not a range or LIKE: the same on SQLite and under any PostgreSQL collation
        return await self._answers_where(
            f"a.round_id = ? AND substr(a.message_id, 1, {len(PLACEHOLDER_PREFIX)}) = ?"
            " ORDER BY a.answered_at, a.id",
            (round_id, PLACEHOLDER_PREFIX),
        )

    async def withdraw_answer(self, answer_id: int, placeholder: str) -> bool:
        changed = await self._db.change(
            "DELETE FROM answers WHERE id = ? AND message_id = ?", (answer_id, placeholder)
        )
        return changed == 1

    async def answer_posted(self, answer_id: int, placeholder: str, message_id: str) -> bool:
        changed = await self._db.change(
            "UPDATE answers SET message_id = ? WHERE id = ? AND message_id = ?",
            (message_id, answer_id, placeholder),
        )
        return changed == 1

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
        now = to_db(at)
        async with self._db.transaction() as session:
            await refuse_duplicate_in(session, delivery)
            found = await session.fetch(
                "SELECT (SELECT COUNT(*) FROM answers WHERE id = ?),"
                " (SELECT COUNT(*) FROM members WHERE id = ?)",
                (answer_id, voter_id),
            )
            if found[0][0] == 0:
                raise NotFoundError(f"no answer with id {answer_id}")
            if found[0][1] == 0:
                raise NotFoundError(f"no member with id {voter_id}")
            counted = (
                await session.execute(
                    "INSERT INTO votes (answer_id, voter_id, voted_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (answer_id, voter_id) DO NOTHING",
                    (answer_id, voter_id, now),
                )
                == 1
            )
            if counted:
                await record_delivery_in(session, delivery, now)
                # Votes on a member's later replies are counted but earn nothing:
                # only the first answer of a round scores.
                await session.execute(
                    "UPDATE answers SET votes = votes + 1, points = base_points + quality_points"
                    " + scoring * ? * (CASE WHEN votes + 1 < ? THEN votes + 1 ELSE ? END)"
                    " WHERE id = ?",
                    (per_vote, max_votes, max_votes, answer_id),
                )
        return counted
