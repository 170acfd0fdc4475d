"""The ``PracticeStore`` port on both backends: private practice sessions.

It runs on the store's database object rather than opening a connection of its own.
"""

from __future__ import annotations

from datetime import datetime

from bot.kernel.models import Delivery
from bot.kernel.refs import ChannelRef
from bot.practice.store import PracticeDraft, PracticeSession, PracticeState
from storage.records import difficulty_from_db
from storage.sql.deliveries import record_delivery_in, refuse_duplicate_in
from storage.sql.session import Row, SqlDatabase
from storage.timestamps import from_db, to_db

DIRECT_NAME = "DM"
SESSION_COLUMNS = (
    "id, member_id, platform, workspace, direct_channel, question_id, topic, answers, state,"
    " started_at, touched_at, difficulty, hints, time_limit_minutes, timed_out_at"
)


class Practice:
    """``PracticeStore`` on a store's database (either backend)."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def open_session(self, member_id: int) -> PracticeSession | None:
        rows = await self._db.fetch(
            f"SELECT {SESSION_COLUMNS} FROM practice_sessions"
            " WHERE member_id = ? AND closed_at IS NULL",
            (member_id,),
        )
        return _session(rows[0]) if rows else None

    async def open_session_in(self, direct: ChannelRef) -> PracticeSession | None:
        rows = await self._db.fetch(
            f"SELECT {SESSION_COLUMNS} FROM practice_sessions"
            " WHERE platform = ? AND direct_channel = ? AND closed_at IS NULL",
            (direct.platform, direct.channel_id),
        )
        return _session(rows[0]) if rows else None

    async def session(self, session_id: int) -> PracticeSession | None:
        rows = await self._db.fetch(
            f"SELECT {SESSION_COLUMNS} FROM practice_sessions WHERE id = ?", (session_id,)
        )
        return _session(rows[0]) if rows else None

    async def start_session(self, draft: PracticeDraft) -> PracticeSession | None:
        at = to_db(draft.at)
        async with self._db.transaction() as session:
            new_id = await session.insert_returning_id(
                "INSERT INTO practice_sessions (member_id, platform, workspace, direct_channel,"
                " question_id, topic, answers, state, started_at, touched_at, difficulty,"
                " time_limit_minutes)"
                " SELECT ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?"
                " WHERE NOT EXISTS (SELECT 1 FROM practice_sessions"
                " WHERE member_id = ? AND closed_at IS NULL)"
                # a session opened at the same time (a second start, on PostgreSQL) is
                # waited for by the unique index, then this one is not opened
                " ON CONFLICT (member_id) WHERE closed_at IS NULL DO NOTHING",
                (
                    draft.member_id,
                    draft.direct.platform,
                    draft.direct.workspace,
                    draft.direct.channel_id,
                    draft.question_id,
                    draft.topic,
                    PracticeState.ANSWER.value,
                    at,
                    at,
                    None if draft.difficulty is None else draft.difficulty.value,
                    draft.time_limit_minutes,
                    draft.member_id,
                ),
            )
            if new_id is None:
                return None
            session_id = new_id
        return PracticeSession(
            session_id,
            draft.member_id,
            draft.direct,
            draft.question_id,
            draft.topic,
            0,
            PracticeState.ANSWER,
            draft.at,
            draft.at,
            draft.difficulty,
            time_limit_minutes=draft.time_limit_minutes,
        )

    async def take_hint(self, session_id: int, at: datetime) -> int | None:
        async with self._db.transaction() as session:
            changed = await session.execute(
                "UPDATE practice_sessions SET hints = hints + 1, touched_at = ?"
                " WHERE id = ? AND closed_at IS NULL",
                (to_db(at), session_id),
            )
            if changed != 1:
                return None
            row = await session.fetch_one(
                "SELECT hints FROM practice_sessions WHERE id = ?", (session_id,)
            )
        return None if row is None else int(row[0])

    async def advance(
        self,
        session_id: int,
        answers: int,
        state: PracticeState,
        at: datetime,
        *,
        delivery: Delivery | None = None,
    ) -> bool:
        now = to_db(at)
        async with self._db.transaction() as session:
            await refuse_duplicate_in(session, delivery)
            changed = await session.execute(
                "UPDATE practice_sessions SET answers = ?, state = ?, touched_at = ?"
                " WHERE id = ? AND answers = ? AND closed_at IS NULL",
                (answers + 1, state.value, now, session_id, answers),
            )
            moved = changed == 1
            if moved:
                await record_delivery_in(session, delivery, now)
            return moved

    async def run_out(self, session_id: int, state: PracticeState, at: datetime) -> bool:
        now = to_db(at)
        async with self._db.transaction() as session:
            changed = await session.execute(
                "UPDATE practice_sessions SET answers = 1, state = ?, touched_at = ?,"
                " timed_out_at = ? WHERE id = ? AND answers = 0 AND closed_at IS NULL"
                " AND time_limit_minutes IS NOT NULL",
                (state.value, now, now, session_id),
            )
            return changed == 1

    async def close_session(self, session_id: int, reason: str, at: datetime) -> bool:
        async with self._db.transaction() as session:
            changed = await session.execute(
                "UPDATE practice_sessions SET closed_at = ?, closed_reason = ?"
                " WHERE id = ? AND closed_at IS NULL",
                (to_db(at), reason, session_id),
            )
            return changed == 1


def _session(row: Row) -> PracticeSession:
    return PracticeSession(
        id=row[0],
        member_id=row[1],
        direct=ChannelRef(row[2], row[3], row[4], DIRECT_NAME),
        question_id=row[5],
        topic=row[6],
        answers=row[7],
        state=PracticeState(row[8]),
        started_at=from_db(row[9]),
        touched_at=from_db(row[10]),
        difficulty=difficulty_from_db(row[11]),
        hints=row[12],
        time_limit_minutes=row[13],
        timed_out=row[14] is not None,
    )
