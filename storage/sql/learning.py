"""The ``LearningStore`` port on both backends: grades, FSRS cards, goals.

It runs on the store's database object rather than opening a connection of its own.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from bot.kernel.grades import Grade
from bot.learning.first_sight import FirstGradeCount, FirstGrades
from bot.learning.memory_model import LoggedGrade, MemoryCard
from bot.learning.store import (
    CardBuilder,
    GradeDraft,
    GradeResult,
    GradeSource,
    OwnGradeKept,
    RatedAlready,
    RecentGrades,
    SessionOver,
)
from storage.sql.pair_ratings import record_rating_in
from storage.sql.session import Row, Session, SqlDatabase
from storage.timestamps import from_db, to_db

CARD_COLUMNS = "question_id, stability, difficulty, due, last_review, reviews"
GRADE_COLUMNS = "rating, graded_at, round_id"

# The first grade of each question a member graded themselves (the earliest current grade:
# a changed grade keeps the time of the review it corrects; one standing in from reviewers
# is not what the member knew), counted per workspace and topic: of one member (with a row
# of no topic when they have none), or of every member. A first sight is a miss only when
# graded missed: "partly" is a lapse to FSRS, but the answer was partly recalled, and
# counting it as a miss made the prior too low (bench/learning.py: 1.009x round-robin at 120
# questions against 1.052x).
_FIRSTS = (
    "SELECT member_id, question_id, rating, ROW_NUMBER() OVER"
    " (PARTITION BY member_id, question_id ORDER BY graded_at, id) AS nth"
    " FROM grades WHERE replaced_at IS NULL AND source = 'self'"
)
_LAPSE = "SUM(CASE WHEN f.rating = 1 THEN 1 ELSE 0 END)"
_MEMBER_FIRST_GRADES = (
    f"SELECT me.platform, me.workspace, q.topic, COUNT(f.rating), {_LAPSE}"
    f" FROM members me LEFT JOIN ({_FIRSTS} AND member_id = ?) AS f ON f.nth = 1"
    " LEFT JOIN questions q ON q.id = f.question_id"
    " WHERE me.id = ? GROUP BY 1, 2, 3"
)
_EVERY_FIRST_GRADE = (
    f"SELECT m.platform, m.workspace, q.topic, COUNT(*), {_LAPSE}"
    f" FROM ({_FIRSTS}) AS f"
    " JOIN questions q ON q.id = f.question_id"
    " JOIN members m ON m.id = f.member_id"
    " WHERE f.nth = 1 GROUP BY 1, 2, 3"
)

# Every first sight of each question by the members of one member's workspace.
_WORKSPACE_QUESTION_FIRST_GRADES = (
    f"SELECT f.question_id, COUNT(*), {_LAPSE}"
    f" FROM ({_FIRSTS}) AS f"
    " JOIN members m ON m.id = f.member_id"
    " JOIN members me ON me.platform = m.platform AND me.workspace = m.workspace"
    " WHERE f.nth = 1 AND me.id = ? GROUP BY 1"
)


class Learning:
    """``LearningStore`` on a store's database (either backend)."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def record_grade(
        self, draft: GradeDraft, *, member_card: CardBuilder, channel_card: CardBuilder
    ) -> GradeResult:
        at = to_db(draft.at)
        async with self._db.transaction() as session:
            if draft.closes_session is not None:
                closed = await session.execute(
                    "UPDATE practice_sessions SET closed_at = ?, closed_reason = 'graded'"
                    " WHERE id = ? AND member_id = ? AND closed_at IS NULL",
                    (at, draft.closes_session, draft.member_id),
                )
                if closed != 1:
                    raise SessionOver(f"practice session {draft.closes_session} is closed")
            if draft.rating is not None and not await record_rating_in(session, draft.rating, at):
                raise RatedAlready(f"pair group {draft.rating.group_id} is rated already")
            replaced, replaced_source = await _log_grade(session, draft, at)
            log = await _log(session, "member_id", draft.member_id, draft.question_id)
            card = member_card(draft.question_id, log)
            if card is None:
                raise AssertionError("a card with a grade must exist")
            await _save_card(session, "member_cards", "member_id", draft.member_id, card)
            if draft.round_id is not None and draft.channel_id is not None:
                log = await _log(session, "channel_id", draft.channel_id, draft.question_id)
                team = channel_card(draft.question_id, log)
                if team is not None:
                    await _save_card(session, "channel_cards", "channel_id", draft.channel_id, team)
        return GradeResult(card, replaced, replaced_source)

    async def member_workspace(self, member_id: int) -> tuple[str, str] | None:
        rows = await self._db.fetch(
            "SELECT platform, workspace FROM members WHERE id = ?", (member_id,)
        )
        return (str(rows[0][0]), str(rows[0][1])) if rows else None

    async def rebuild_cards(
        self, platform: str, workspace: str, *, member_card: CardBuilder, channel_card: CardBuilder
    ) -> int:
        rebuilt = 0
        for table, owner, build in (
            ("members", "member_id", member_card),
            ("channels", "channel_id", channel_card),
        ):
            owners = await self._db.fetch(
                f"SELECT id FROM {table} WHERE platform = ? AND workspace = ? ORDER BY id",
                (platform, workspace),
            )
            for (owner_id,) in owners:
                rebuilt += await self._rebuild_owner(f"{table[:-1]}_cards", owner, owner_id, build)
        return rebuilt

    async def _rebuild_owner(
        self, cards: str, owner: str, owner_id: int, build: CardBuilder
    ) -> int:
        rebuilt = 0
        async with self._db.transaction() as session:
            rows = await _rows(
                session, f"SELECT question_id FROM {cards} WHERE {owner} = ?", (owner_id,)
            )
            for (question_id,) in rows:
                card = build(int(question_id), await _log(session, owner, owner_id, question_id))
                if card is not None:
                    await _save_card(session, cards, owner, owner_id, card)
                    rebuilt += 1
        return rebuilt

    async def member_cards(self, member_id: int) -> dict[int, MemoryCard]:
        return await self._cards("member_cards", "member_id", member_id)

    async def channel_cards(self, channel_id: int) -> dict[int, MemoryCard]:
        return await self._cards("channel_cards", "channel_id", channel_id)

    async def _cards(self, table: str, owner: str, owner_id: int) -> dict[int, MemoryCard]:
        rows = await self._db.fetch(
            f"SELECT {CARD_COLUMNS} FROM {table} WHERE {owner} = ?", (owner_id,)
        )
        # hundreds of cards take milliseconds to build: not on the event loop
        return await asyncio.to_thread(_cards_of, rows)

    async def round_grades(self, round_id: int) -> dict[int, Grade]:
        rows = await self._db.fetch(
            "SELECT member_id, rating FROM grades WHERE round_id = ? AND replaced_at IS NULL",
            (round_id,),
        )
        return {row[0]: Grade(row[1]) for row in rows}

    async def grade_log(self, member_id: int) -> list[tuple[int, Grade, datetime, bool]]:
        rows = await self._db.fetch(
            "SELECT question_id, rating, graded_at, replaced_at FROM grades"
            " WHERE member_id = ? ORDER BY graded_at, id",
            (member_id,),
        )
        return [(row[0], Grade(row[1]), from_db(row[2]), row[3] is not None) for row in rows]

    async def recent_grades(self, member_id: int, since: datetime, at: datetime) -> RecentGrades:
        # two index seeks on grades_by_member_time: one row, then the window's rows
        rows = await self._db.fetch(
            "SELECT (SELECT MIN(graded_at) FROM grades WHERE member_id = ?"
            " AND replaced_at IS NULL AND graded_at <= ?),"
            " (SELECT COUNT(*) FROM grades WHERE member_id = ?"
            " AND replaced_at IS NULL AND graded_at >= ? AND graded_at <= ?)",
            (member_id, to_db(at), member_id, to_db(since), to_db(at)),
        )
        first, recent = rows[0]
        return RecentGrades(None if first is None else from_db(first), int(recent))

    async def first_grades(self, member_id: int | None = None) -> list[FirstGradeCount]:
        if member_id is None:
            rows = await self._db.fetch(_EVERY_FIRST_GRADE, ())
        else:
            rows = await self._db.fetch(_MEMBER_FIRST_GRADES, (member_id, member_id))
        return [
            FirstGradeCount(row[0], row[1], row[2], FirstGrades(int(row[3]), int(row[4] or 0)))
            for row in rows
        ]

    async def question_first_grades(self, member_id: int) -> dict[int, FirstGrades]:
        rows = await self._db.fetch(_WORKSPACE_QUESTION_FIRST_GRADES, (member_id,))
        return {int(row[0]): FirstGrades(int(row[1]), int(row[2] or 0)) for row in rows}

    async def goal(self, member_id: int) -> date | None:
        rows = await self._db.fetch(
            "SELECT target_date FROM member_goals WHERE member_id = ?", (member_id,)
        )
        return date.fromisoformat(rows[0][0]) if rows else None

    async def set_goal(self, member_id: int, goal: date | None) -> None:
        async with self._db.transaction() as session:
            if goal is None:
                await session.execute("DELETE FROM member_goals WHERE member_id = ?", (member_id,))
            else:
                await session.execute(
                    "INSERT INTO member_goals (member_id, target_date) VALUES (?, ?)"
                    " ON CONFLICT (member_id) DO UPDATE SET target_date = excluded.target_date",
                    (member_id, goal.isoformat()),
                )


# Another grade of the member's of the same round may commit between this transaction's look
# for the current one and its insert (PostgreSQL runs both presses of a double click at once;
# SQLite's write transactions never overlap): the insert then waits for it and does nothing,
# and the look is made again, now finding that grade to replace.
_INSERT_GRADE = (
    "INSERT INTO grades (member_id, question_id, round_id, channel_id, rating, graded_at,"
    " covered, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (round_id, member_id) WHERE round_id IS NOT NULL AND replaced_at IS NULL"
    " DO NOTHING"
)
_GRADE_TRIES = 10


async def _log_grade(
    session: Session, draft: GradeDraft, at: str
) -> tuple[Grade | None, GradeSource | None]:
    """Log the grade, replacing the member's current grade of the same round (which it
    returns, with who gave it); the new grade takes the replaced one's time, as it corrects
    that review."""
    for _ in range(_GRADE_TRIES):
        replaced: Grade | None = None
        replaced_source: GradeSource | None = None
        reviewed_at = at
        covered = None if draft.covered is None else json.dumps(list(draft.covered))
        if draft.round_id is not None:
            earlier = await _rows(
                session,
                "SELECT id, rating, graded_at, source, covered FROM grades"
                " WHERE round_id = ? AND member_id = ? AND replaced_at IS NULL",
                (draft.round_id, draft.member_id),
            )
            if earlier and GradeSource(earlier[0][3]).rank > draft.source.rank:
                raise OwnGradeKept(
                    f"round {draft.round_id}: a grade from {earlier[0][3]} outranks"
                    f" {draft.source.value}"
                )
            if earlier:
                replaced = Grade(earlier[0][1])
                replaced_source = GradeSource(earlier[0][3])
                if covered is None and earlier[0][3] == GradeSource.SELF.value:
                    covered = earlier[0][4]  # another grade picked after the ticks keeps them
                # A changed grade corrects the review the member made back then: it
                # keeps that time, so the cards replay it in its place in the log.
                reviewed_at = earlier[0][2]
                await session.execute(
                    "UPDATE grades SET replaced_at = ? WHERE id = ? AND replaced_at IS NULL",
                    (at, earlier[0][0]),
                )
        inserted = await session.execute(
            _INSERT_GRADE,
            (
                draft.member_id,
                draft.question_id,
                draft.round_id,
                draft.channel_id,
                int(draft.grade),
                reviewed_at,
                covered,
                draft.source.value,
            ),
        )
        if inserted == 1:
            return replaced, replaced_source
    raise RuntimeError(f"round {draft.round_id}: the member's grade kept changing meanwhile")


async def _rows(session: Session, sql: str, params: Sequence[Any]) -> list[Row]:
    return list(await session.fetch(sql, params))


async def _log(session: Session, owner: str, owner_id: int, question_id: int) -> list[LoggedGrade]:
    rows = await _rows(
        session,
        f"SELECT {GRADE_COLUMNS} FROM grades"
        f" WHERE {owner} = ? AND question_id = ? AND replaced_at IS NULL ORDER BY graded_at, id",
        (owner_id, question_id),
    )
    return [LoggedGrade(Grade(row[0]), from_db(row[1]), row[2]) for row in rows]


async def _save_card(
    session: Session, table: str, owner: str, owner_id: int, card: MemoryCard
) -> None:
    await session.execute(
        f"INSERT INTO {table} ({owner}, {CARD_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
        f" ON CONFLICT ({owner}, question_id) DO UPDATE SET stability = excluded.stability,"
        " difficulty = excluded.difficulty, due = excluded.due,"
        " last_review = excluded.last_review, reviews = excluded.reviews",
        (
            owner_id,
            card.question_id,
            card.stability,
            card.difficulty,
            to_db(card.due),
            to_db(card.last_review),
            card.reviews,
        ),
    )


def _cards_of(rows: Sequence[Row]) -> dict[int, MemoryCard]:
    return {row[0]: _card(row) for row in rows}


def _card(row: Row) -> MemoryCard:
    return MemoryCard(
        row[0], float(row[1]), float(row[2]), from_db(row[3]), from_db(row[4]), int(row[5])
    )
