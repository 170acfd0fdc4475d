"""The coach's readings of practice answers (``PracticeReadings``) on both backends."""

from __future__ import annotations

import json
from datetime import datetime

from bot.coach.verification import VerifiedTick
from bot.coaching.practice_store import (
    PracticeAnswer,
    PracticeReading,
    ReadingOutcome,
    ReadingState,
)
from bot.kernel.refs import ChannelRef, MemberRef
from storage.sql.coach_spend import spend
from storage.sql.session import Row, SqlDatabase
from storage.timestamps import from_db, to_db

_READING = (
    "SELECT c.id, c.session_id, c.member_id, m.platform, m.workspace, m.member,"
    " m.display_name, p.platform, p.workspace, p.direct_channel, p.question_id, c.model,"
    " c.answer, c.answered_at, c.state, c.key_points, c.ticks, c.dropped, c.probe"
    " FROM coach_practice_readings c JOIN practice_sessions p ON p.id = c.session_id"
    " JOIN members m ON m.id = c.member_id"
)

_DECISIONS = frozenset({ReadingState.ACCEPTED, ReadingState.EDITED, ReadingState.DISMISSED})


def _ticks(text: str) -> tuple[VerifiedTick, ...]:
    return tuple(VerifiedTick(int(t["point"]), str(t["quote"])) for t in json.loads(text))


def _reading(row: Row) -> PracticeReading:
    return PracticeReading(
        id=int(row[0]),
        session_id=int(row[1]),
        member_id=int(row[2]),
        author=MemberRef(str(row[3]), str(row[4]), str(row[5]), str(row[6])),
        direct=ChannelRef(str(row[7]), str(row[8]), str(row[9])),
        question_id=int(row[10]),
        model=str(row[11]),
        text=str(row[12]),
        answered_at=from_db(row[13]),
        state=ReadingState(row[14]),
        key_points=int(row[15]),
        ticks=_ticks(row[16]),
        dropped=int(row[17]),
        probe=None if row[18] is None else str(row[18]),
    )


class CoachPractice:
    """The practice side of the coach aggregate (mixed into ``storage.sql.coach.Coach``)."""

    _db: SqlDatabase

    async def coach_on_for(self, member_id: int) -> bool:
        row = await self._db.fetch_one(
            "SELECT 1 FROM members m JOIN channels c"
            " ON c.platform = m.platform AND c.workspace = m.workspace"
            " WHERE m.id = ? AND c.coach = 1 AND c.disabled_reason IS NULL",
            (member_id,),
        )
        return row is not None

    async def queue_practice_reading(self, answer: PracticeAnswer) -> int | None:
        async with self._db.transaction() as session:
            return await session.insert_returning_id(
                "INSERT INTO coach_practice_readings (session_id, member_id, model, answer,"
                " answered_at, state) VALUES (?, ?, ?, ?, ?, 'pending')"
                " ON CONFLICT (session_id, model) DO NOTHING",
                (answer.session_id, answer.member_id, answer.model, answer.text, to_db(answer.at)),
            )

    async def practice_reading(self, reading_id: int) -> PracticeReading | None:
        row = await self._db.fetch_one(f"{_READING} WHERE c.id = ?", (reading_id,))
        return None if row is None else _reading(row)

    async def practice_reading_of_session(
        self, session_id: int, model: str
    ) -> PracticeReading | None:
        row = await self._db.fetch_one(
            f"{_READING} WHERE c.session_id = ? AND c.model = ?", (session_id, model)
        )
        return None if row is None else _reading(row)

    async def record_practice_reading(
        self, reading_id: int, outcome: ReadingOutcome, *, requests: int
    ) -> PracticeReading | None:
        o = outcome
        ticks = json.dumps([{"point": t.point, "quote": t.quote} for t in o.ticks])
        async with self._db.transaction() as session:
            changed = await session.execute(
                "UPDATE coach_practice_readings SET state = ?, cache_key = ?, key_points = ?,"
                " ticks = ?, dropped = ?, tokens = ?, read_at = ?"
                " WHERE id = ? AND state = 'pending'",
                (
                    o.state.value,
                    o.cache_key,
                    o.key_points,
                    ticks,
                    o.dropped,
                    o.tokens,
                    to_db(o.at),
                    reading_id,
                ),
            )
            if changed and (requests or o.tokens):
                row = await session.fetch_one(
                    "SELECT m.platform, m.workspace, m.id FROM coach_practice_readings c"
                    " JOIN members m ON m.id = c.member_id WHERE c.id = ?",
                    (reading_id,),
                )
                if row is not None:
                    platform, workspace, member = str(row[0]), str(row[1]), int(row[2])
                    await spend(
                        session, platform, workspace, member, o.at.date(), requests, o.tokens
                    )
        return await self.practice_reading(reading_id)

    async def mark_practice_shown(self, reading_id: int) -> bool:
        changed = await self._db.change(
            "UPDATE coach_practice_readings SET state = 'shown' WHERE id = ? AND state = 'ready'",
            (reading_id,),
        )
        return changed == 1

    async def decide_practice_reading(
        self, reading_id: int, state: ReadingState, at: datetime
    ) -> bool:
        if state not in _DECISIONS:
            raise ValueError(f"{state.value} is not a decision on a practice card")
        changed = await self._db.change(
            "UPDATE coach_practice_readings SET state = ?, decided_at = ?"
            " WHERE id = ? AND state = 'shown'",
            (state.value, to_db(at), reading_id),
        )
        return changed == 1

    async def record_practice_probe(
        self, reading_id: int, probe: str | None, *, tokens: int, requests: int, at: datetime
    ) -> None:
        async with self._db.transaction() as session:
            await session.execute(
                "UPDATE coach_practice_readings SET probe = ?, tokens = tokens + ? WHERE id = ?",
                (probe, tokens, reading_id),
            )
            row = await session.fetch_one(
                "SELECT m.platform, m.workspace, m.id FROM coach_practice_readings c"
                " JOIN members m ON m.id = c.member_id WHERE c.id = ?",
                (reading_id,),
            )
            if row is not None and (requests or tokens):
                platform, workspace, member = str(row[0]), str(row[1]), int(row[2])
                await spend(session, platform, workspace, member, at.date(), requests, tokens)

    async def refuses_probe(self, member_id: int) -> bool:
        row = await self._db.fetch_one(
            "SELECT 1 FROM coach_probe_opt_outs WHERE member_id = ?", (member_id,)
        )
        return row is not None

    async def set_probe(self, member_id: int, on: bool, at: datetime) -> None:
        async with self._db.transaction() as session:
            if on:
                await session.execute(
                    "DELETE FROM coach_probe_opt_outs WHERE member_id = ?", (member_id,)
                )
            else:
                await session.execute(
                    "INSERT INTO coach_probe_opt_outs (member_id, since) VALUES (?, ?)"
                    " ON CONFLICT (member_id) DO NOTHING",
                    (member_id, to_db(at)),
                )

    async def action_done(self, key: str) -> bool:
        row = await self._db.fetch_one(
            "SELECT 1 FROM outbox WHERE key = ? AND state = 'done'", (key,)
        )
        return row is not None
