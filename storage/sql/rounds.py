"""Questions and rounds (the ``RoundStore`` port): the statements both backends share.

Creating a round, adding a reveal reactor and revealing are each one transaction whose
statements differ by backend (SQLite runs them in one hop on its thread, PostgreSQL
guards against other replicas); the backends' subclasses implement those three.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from bot.kernel.bounded_cache import BoundedCache
from bot.kernel.models import (
    ActionKind,
    ChannelSettings,
    Delivery,
    LaterAction,
    OutboxDraft,
    Revealed,
    Round,
    action_key,
)
from questions.catalog import QuestionKey
from storage.blind_queries import ROUNDS_WITH_UNPOSTED_BLIND_ANSWERS, queue_blind_answers_sql
from storage.records import (
    CHANNEL_COLUMNS,
    OUTBOX_COLUMNS,
    ROUND_COLUMNS,
    channel_from_row,
    round_from_row,
)
from storage.sql.session import Row, SqlDatabase
from storage.timestamps import from_db, to_db

ASK_COUNTS = "SELECT question_id, COUNT(*) FROM rounds WHERE channel_id = ? GROUP BY question_id"
QUEUE_BLIND_ANSWERS_OF_CHANNEL = queue_blind_answers_sql("r.channel_id = ?")
_QUEUE_BLIND_ANSWERS_OF_ROUND = queue_blind_answers_sql("r.id = ?")
# A round and its channel in one statement (the channel's id is the round's channel_id).
ROUND_IN_CHANNEL = (
    "SELECT "
    + ", ".join(f"r.{c}" for c in ROUND_COLUMNS.split(", "))
    + ", "
    + ", ".join(f"c.{c}" for c in CHANNEL_COLUMNS.split(", ") if c != "id")
    + " FROM rounds r LEFT JOIN channels c ON c.id = r.channel_id WHERE r.id = ?"
)
# Revealing a round: {round_id} is a parameter or ROUND_BY_MESSAGE. A round an admin
# skipped is never revealed: its outline stays unposted.
REVEAL = (
    "UPDATE rounds SET revealed_at = ? WHERE id = ({round_id}) AND revealed_at IS NULL"
    f" AND skipped_at IS NULL RETURNING {ROUND_COLUMNS}"
)
# The round whose question is a message.
ROUND_BY_MESSAGE = "SELECT id FROM rounds WHERE channel_id = ? AND question_message = ? LIMIT 1"
PENDING_OF_ROUND = (
    f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE round_id = ? AND state = 'pending' ORDER BY id"
)
# The next question closes the open round: unless it was revealed (or skipped, which closed
# it already), it is revealed first, and its follow-ups and outline are queued as a reveal
# queues them (a key already queued stays as it is). Parameters: now three times, the channel.
_OPEN_UNREVEALED = (
    "r.channel_id = ? AND r.state = 'open' AND r.revealed_at IS NULL AND r.skipped_at IS NULL"
)
QUEUE_REVEAL_OF_OPEN_ROUND = (
    "INSERT INTO outbox (round_id, kind, key, state, attempts, next_attempt_at,"
    " created_at, updated_at)"
    " SELECT r.id, k.kind, 'round:' || r.id || ':' || k.kind, 'pending', 0, ?, ?, ?"
    f" FROM rounds r, (SELECT '{ActionKind.FOLLOW_UPS.value}' AS kind"
    f" UNION ALL SELECT '{ActionKind.OUTLINE.value}') k"
    f" WHERE {_OPEN_UNREVEALED}"
    " ON CONFLICT (key) DO NOTHING"
)
# With the answer coach on, its cards that wait for that outline go after it (bot.coaching).
# Parameters: now three times, the channel.
QUEUE_COACH_CARDS_OF_OPEN_ROUND = (
    "INSERT INTO outbox (round_id, kind, key, state, attempts, next_attempt_at,"
    " created_at, updated_at)"
    f" SELECT r.id, '{ActionKind.COACH_CARDS.value}',"
    f" 'round:' || r.id || ':{ActionKind.COACH_CARDS.value}', 'pending', 0, ?, ?, ?"
    f" FROM rounds r WHERE {_OPEN_UNREVEALED}"
    " AND EXISTS (SELECT 1 FROM channels c WHERE c.id = r.channel_id AND c.coach = 1)"
    " ON CONFLICT (key) DO NOTHING"
)
# Parameters: now, the channel.
REVEAL_OPEN_ROUND = "UPDATE rounds SET revealed_at = ? WHERE " + _OPEN_UNREVEALED.replace("r.", "")
# A new round's notice step, queued in the round's transaction, only when members of the
# channel asked for notices. Parameters: the round, its key, now three times, the channel.
QUEUE_NOTICE = (
    "INSERT INTO outbox (round_id, kind, key, state, attempts, next_attempt_at,"
    " created_at, updated_at)"
    f" SELECT ?, '{ActionKind.NOTICE.value}', ?, 'pending', 0, ?, ?, ?"
    " WHERE EXISTS (SELECT 1 FROM notice_members WHERE channel_id = ?)"
    " ON CONFLICT (key) DO NOTHING"
)


def notice_params(round_id: int, now: str, channel_id: int) -> tuple[object, ...]:
    return (round_id, action_key(round_id, ActionKind.NOTICE), now, now, now, channel_id)


CLOSE_OPEN_ROUND = (
    "UPDATE rounds SET state = 'closed', closed_at = ? WHERE channel_id = ? AND state = 'open'"
)


def closing_the_open_round(now: str, channel_id: int) -> list[tuple[str, tuple[object, ...]]]:
    """The statements, with their parameters, by which a new round closes its channel's
    open one: its waiting blind answers and, unless it was revealed, its follow-ups and
    outline are queued, then it is marked revealed and closed. Run in the new round's
    transaction, where each statement sees the same open round: a backend whose
    transactions run side by side (PostgreSQL) first locks the channel's rounds, or a
    round another replica opened between two of them is closed without its outline."""
    return [
        (QUEUE_BLIND_ANSWERS_OF_CHANNEL, (now, now, now, channel_id)),
        (QUEUE_REVEAL_OF_OPEN_ROUND, (now, now, now, channel_id)),
        (QUEUE_COACH_CARDS_OF_OPEN_ROUND, (now, now, now, channel_id)),
        (REVEAL_OPEN_ROUND, (now, channel_id)),
        (CLOSE_OPEN_ROUND, (now, channel_id)),
    ]


ADD_REVEAL_REACTOR = (
    "INSERT INTO reveal_reactors (round_id, member_id, reacted_at) VALUES (?, ?, ?)"
    " ON CONFLICT (round_id, member_id) DO NOTHING"
)
COUNT_REVEAL_REACTORS = "SELECT COUNT(*) FROM reveal_reactors WHERE round_id = ?"

# Gives the drafts a reveal queues, given the revealed round's id.
DraftsFor = Callable[[int], Sequence[OutboxDraft]]


def later_rows(
    round_id: int, later: Sequence[LaterAction]
) -> list[tuple[ActionKind, str, datetime]]:
    """The kind, key and due time of each of a new round's later actions."""
    return [(a.kind, action_key(round_id, a.kind) + a.suffix, a.due) for a in later]


def round_drafts(round_id: int, kinds: Sequence[ActionKind]) -> list[OutboxDraft]:
    return [OutboxDraft(round_id, kind, action_key(round_id, kind)) for kind in kinds]


class RoundQueries(ABC):
    """Rounds and the questions they ask; ``round_channels`` (which channel each round
    belongs to) is shared with the answers aggregate, which checks drafts against it."""

    def __init__(self, db: SqlDatabase, round_channels: BoundedCache[int, int]) -> None:
        self._db = db
        self._round_channels = round_channels

    # what each backend writes its own way

    @abstractmethod
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
    ) -> Round | None: ...

    @abstractmethod
    async def add_reveal_reactor(
        self, round_id: int, member_id: int, *, at: datetime, delivery: Delivery | None = None
    ) -> int: ...

    @abstractmethod
    async def _reveal(
        self,
        round_id_sql: str,
        params: Sequence[Any],
        now: str,
        drafts_for: DraftsFor,
        delivery: Delivery | None,
    ) -> Revealed | None:
        """Reveal the round ``round_id_sql`` (SQL giving its id) selects, queue its drafts
        and record ``delivery``: one transaction."""

    # questions

    async def sync_questions(self, questions: Sequence[QuestionKey]) -> dict[tuple[str, str], int]:
        params = [(q.pack, q.question, q.topic, q.content_hash) for q in questions]
        async with self._db.transaction() as session:
            await session.execute_many(
                "INSERT INTO questions (pack, question, topic, content_hash) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (pack, question) DO UPDATE"
                " SET topic = excluded.topic, content_hash = excluded.content_hash",
                params,
            )
            rows = await session.fetch("SELECT id, pack, question FROM questions")
        wanted = {(q.pack, q.question) for q in questions}
        return {(row[1], row[2]): row[0] for row in rows if (row[1], row[2]) in wanted}

    # rounds

    async def _round_where(self, condition: str, params: Sequence[Any]) -> Round | None:
        row = await self._db.fetch_one(
            f"SELECT {ROUND_COLUMNS} FROM rounds WHERE {condition}", params
        )
        return None if row is None else round_from_row(row)

    async def get_round(self, round_id: int) -> Round | None:
        return await self._round_where("id = ?", (round_id,))

    async def round_in_channel(self, round_id: int) -> tuple[Round, ChannelSettings | None] | None:
        row = await self._db.fetch_one(ROUND_IN_CHANNEL, (round_id,))
        if row is None:
            return None
        fields: dict[str, Any] = dict(zip(row.keys(), tuple(row), strict=True))
        round_ = round_from_row(cast(Row, fields))
        if fields["platform"] is None:
            return round_, None  # the channel is gone
        channel = channel_from_row(cast(Row, {**fields, "id": round_.channel_id}))
        return round_, channel

    async def round_by_number(self, channel_id: int, number: int) -> Round | None:
        return await self._round_where("channel_id = ? AND number = ?", (channel_id, number))

    async def latest_revealed_round(self, channel_id: int, since: datetime) -> Round | None:
        return await self._round_where(
            "channel_id = ? AND revealed_at IS NOT NULL AND created_at >= ?"
            " ORDER BY number DESC LIMIT 1",
            (channel_id, to_db(since)),
        )

    async def open_round(self, channel_id: int) -> Round | None:
        return await self._round_where("channel_id = ? AND state = 'open'", (channel_id,))

    async def latest_round(self, channel_id: int) -> Round | None:
        return await self._round_where("channel_id = ? ORDER BY number DESC LIMIT 1", (channel_id,))

    async def latest_round_times(self) -> dict[int, datetime]:
        rows = await self._db.fetch(
            "SELECT c.id, (SELECT r.scheduled_for FROM rounds r WHERE r.channel_id = c.id"
            " ORDER BY r.number DESC LIMIT 1) FROM channels c"
        )
        return {row[0]: from_db(row[1]) for row in rows if row[1] is not None}

    async def round_by_message(self, channel_id: int, message: str) -> Round | None:
        return await self._round_where(
            "channel_id = ? AND question_message = ?", (channel_id, message)
        )

    async def round_by_thread(self, channel_id: int, thread: str) -> Round | None:
        return await self._round_where("channel_id = ? AND thread = ?", (channel_id, thread))

    async def reveal_round(
        self, round_id: int, at: datetime, drafts: Sequence[OutboxDraft]
    ) -> Revealed | None:
        return await self._reveal("?", (round_id,), to_db(at), lambda _: drafts, None)

    async def reveal_round_by_message(
        self,
        channel_id: int,
        message: str,
        at: datetime,
        kinds: Sequence[ActionKind],
        *,
        delivery: Delivery,
    ) -> Revealed | None:
        return await self._reveal(
            ROUND_BY_MESSAGE,
            (channel_id, message),
            to_db(at),
            lambda round_id: round_drafts(round_id, kinds),
            delivery,
        )

    async def skip_round(self, round_id: int, at: datetime) -> bool:
        now = to_db(at)
        async with self._db.transaction() as session:
            await session.execute(_QUEUE_BLIND_ANSWERS_OF_ROUND, (now, now, now, round_id))
            # One statement: no reveal can come between the close and the mark.
            changed = await session.execute(
                "UPDATE rounds SET state = 'closed', closed_at = ?,"
                " skipped_at = CASE WHEN revealed_at IS NULL THEN ? END"
                " WHERE id = ? AND state = 'open'",
                (now, now, round_id),
            )
            return changed == 1

    async def rounds_with_unposted_blind_answers(self, channel_id: int) -> list[Round]:
        rows = await self._db.fetch(ROUNDS_WITH_UNPOSTED_BLIND_ANSWERS, (channel_id,))
        return [round_from_row(row) for row in rows]
