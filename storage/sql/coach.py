"""The ``CoachStore`` port on both backends, on the store's database object."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date, datetime

from bot.coach.verification import VerifiedTick
from bot.coaching.store import (
    AnswerToAssess,
    AssessmentState,
    DecisionCounts,
    NewAssessment,
    StoredAssessment,
    Usage,
)
from bot.kernel.refs import MemberRef
from storage.sql.coach_practice import CoachPractice
from storage.sql.coach_spend import spend
from storage.sql.quality import refresh_quality
from storage.sql.session import Row, SqlDatabase
from storage.timestamps import from_db, to_db

_ASSESSMENT_COLUMNS = (
    "id, answer_id, member_id, model, key_points, ticks, dropped, tokens, state, accepted"
)
# the states whose ticks came from the endpoint (a cached reply is one of these)
_ANSWERED = ("ready", "shown", "accepted", "edited", "dismissed")


def _ticks_to_db(ticks: Sequence[VerifiedTick]) -> str:
    return json.dumps([{"point": t.point, "quote": t.quote} for t in ticks], ensure_ascii=False)


def _ticks_from_db(text: str) -> tuple[VerifiedTick, ...]:
    return tuple(VerifiedTick(int(t["point"]), str(t["quote"])) for t in json.loads(text))


def _assessment(row: Row) -> StoredAssessment:
    accepted = row[9]
    return StoredAssessment(
        id=int(row[0]),
        answer_id=int(row[1]),
        member_id=int(row[2]),
        model=str(row[3]),
        key_points=int(row[4]),
        ticks=_ticks_from_db(row[5]),
        dropped=int(row[6]),
        tokens=int(row[7]),
        state=AssessmentState(row[8]),
        accepted=None if accepted is None else tuple(int(p) for p in json.loads(accepted)),
    )


class Coach(CoachPractice):
    """Members' opt-outs, the coach's assessments and its daily usage."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def refuse_coach(self, member_id: int, at: datetime) -> bool:
        async with self._db.transaction() as session:
            added = await session.execute(
                "INSERT INTO coach_opt_outs (member_id, since) VALUES (?, ?)"
                " ON CONFLICT (member_id) DO NOTHING",
                (member_id, to_db(at)),
            )
        return added == 1

    async def allow_coach(self, member_id: int) -> bool:
        async with self._db.transaction() as session:
            removed = await session.execute(
                "DELETE FROM coach_opt_outs WHERE member_id = ?", (member_id,)
            )
        return removed == 1

    async def refuses_coach(self, member_id: int) -> bool:
        row = await self._db.fetch_one(
            "SELECT 1 FROM coach_opt_outs WHERE member_id = ?", (member_id,)
        )
        return row is not None

    async def answer_to_assess(self, answer_id: int) -> AnswerToAssess | None:
        row = await self._db.fetch_one(
            "SELECT a.id, a.round_id, a.channel_id, r.question_id, a.member_id, m.platform,"
            " m.workspace, m.member, m.display_name, a.text, a.answered_at, r.revealed_at"
            " FROM answers a JOIN rounds r ON r.id = a.round_id"
            " JOIN members m ON m.id = a.member_id WHERE a.id = ?",
            (answer_id,),
        )
        if row is None:
            return None
        return AnswerToAssess(
            answer_id=int(row[0]),
            round_id=int(row[1]),
            channel_id=int(row[2]),
            question_id=int(row[3]),
            member_id=int(row[4]),
            author=MemberRef(str(row[5]), str(row[6]), str(row[7]), str(row[8])),
            text=str(row[9]),
            answered_at=from_db(row[10]),
            revealed=row[11] is not None,
        )

    async def assessment(self, answer_id: int, model: str) -> StoredAssessment | None:
        row = await self._db.fetch_one(
            f"SELECT {_ASSESSMENT_COLUMNS} FROM coach_assessments"
            " WHERE answer_id = ? AND model = ?",
            (answer_id, model),
        )
        return None if row is None else _assessment(row)

    async def assessment_by_id(self, assessment_id: int) -> StoredAssessment | None:
        row = await self._db.fetch_one(
            f"SELECT {_ASSESSMENT_COLUMNS} FROM coach_assessments WHERE id = ?", (assessment_id,)
        )
        return None if row is None else _assessment(row)

    async def cached_ticks(self, cache_key: str) -> tuple[tuple[VerifiedTick, ...], int] | None:
        row = await self._db.fetch_one(
            "SELECT ticks, dropped FROM coach_assessments WHERE cache_key = ?"
            f" AND state IN ({', '.join('?' for _ in _ANSWERED)}) ORDER BY id LIMIT 1",
            (cache_key, *_ANSWERED),
        )
        if row is None:  # a practice answer read the same (the same text and key points)
            row = await self._db.fetch_one(
                "SELECT ticks, dropped FROM coach_practice_readings WHERE cache_key = ?"
                " AND state IN ('ready', 'shown') ORDER BY id LIMIT 1",
                (cache_key,),
            )
        return None if row is None else (_ticks_from_db(row[0]), int(row[1]))

    async def usage(self, platform: str, workspace: str, member_id: int, day: date) -> Usage:
        spent = await self._db.fetch_one(
            "SELECT requests, tokens FROM coach_workspace_usage"
            " WHERE platform = ? AND workspace = ? AND day = ?",
            (platform, workspace, day.isoformat()),
        )
        asked = await self._db.fetch_one(
            "SELECT requests FROM coach_member_usage WHERE member_id = ? AND day = ?",
            (member_id, day.isoformat()),
        )
        return Usage(
            workspace_requests=int(spent[0]) if spent else 0,
            workspace_tokens=int(spent[1]) if spent else 0,
            member_requests=int(asked[0]) if asked else 0,
        )

    async def record_assessment(
        self, assessment: NewAssessment, *, platform: str, workspace: str, requests: int
    ) -> StoredAssessment:
        a = assessment
        async with self._db.transaction() as session:
            added = await session.insert_returning_id(
                "INSERT INTO coach_assessments (answer_id, member_id, model, cache_key,"
                " key_points, ticks, dropped, tokens, state, assessed_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (answer_id, model) DO NOTHING",
                (
                    a.answer_id,
                    a.member_id,
                    a.model,
                    a.cache_key,
                    a.key_points,
                    _ticks_to_db(a.ticks),
                    a.dropped,
                    a.tokens,
                    a.state.value,
                    to_db(a.at),
                ),
            )
            if added is not None and (requests or a.tokens):
                await spend(
                    session, platform, workspace, a.member_id, a.at.date(), requests, a.tokens
                )
            row = await session.fetch_one(
                f"SELECT {_ASSESSMENT_COLUMNS} FROM coach_assessments"
                " WHERE answer_id = ? AND model = ?",
                (a.answer_id, a.model),
            )
        assert row is not None  # inserted, or there already
        return _assessment(row)

    async def mark_shown(self, assessment_id: int) -> bool:
        return (
            await self._db.change(
                "UPDATE coach_assessments SET state = 'shown' WHERE id = ? AND state = 'ready'",
                (assessment_id,),
            )
            == 1
        )

    async def outline_out(self, round_id: int, outline_key: str) -> bool:
        row = await self._db.fetch_one(
            "SELECT 1 FROM rounds r WHERE r.id = ? AND r.revealed_at IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.key = ? AND o.state <> 'done')",
            (round_id, outline_key),
        )
        return row is not None

    async def ready_of_round(self, round_id: int) -> list[StoredAssessment]:
        columns = ", ".join(f"c.{name.strip()}" for name in _ASSESSMENT_COLUMNS.split(","))
        rows = await self._db.fetch(
            f"SELECT {columns} FROM coach_assessments c JOIN answers a ON a.id = c.answer_id"
            " WHERE a.round_id = ? AND c.state = 'ready' ORDER BY c.id",
            (round_id,),
        )
        return [_assessment(row) for row in rows]

    async def decide(
        self,
        assessment_id: int,
        state: AssessmentState,
        accepted: Sequence[int],
        at: datetime,
    ) -> None:
        async with self._db.transaction() as session:
            row = await session.fetch_one(
                "SELECT answer_id, key_points FROM coach_assessments WHERE id = ?",
                (assessment_id,),
            )
            if row is None:
                return
            await session.execute(
                "UPDATE coach_assessments SET state = ?, accepted = ?, decided_at = ? WHERE id = ?",
                (state.value, json.dumps(sorted(set(accepted))), to_db(at), assessment_id),
            )
            await refresh_quality(session, int(row[0]), int(row[1]))

    async def judged_by_both(self, channel_id: int) -> list[tuple[frozenset[int], frozenset[int]]]:
        rows = await self._db.fetch(
            "SELECT c.answer_id, c.ticks, r.covered FROM coach_assessments c"
            " JOIN answers a ON a.id = c.answer_id"
            " JOIN answer_reviews r ON r.answer_id = c.answer_id AND r.reviewer_id <> a.member_id"
            f" WHERE a.channel_id = ? AND c.state IN ({', '.join('?' for _ in _ANSWERED)})"
            " AND r.covered IS NOT NULL ORDER BY c.answer_id",
            (channel_id, *_ANSWERED),
        )
        coach: dict[int, frozenset[int]] = {}
        reviewers: dict[int, set[int]] = {}
        for row in rows:
            answer_id = int(row[0])
            coach[answer_id] = frozenset(t.point for t in _ticks_from_db(row[1]))
            reviewers.setdefault(answer_id, set()).update(int(p) for p in json.loads(row[2]))
        return [(coach[a], frozenset(reviewers[a])) for a in coach]

    async def decision_counts(self, channel_id: int, since: datetime) -> DecisionCounts:
        row = await self._db.fetch_one(
            "SELECT COALESCE(SUM(CASE WHEN c.state = 'accepted' THEN 1 ELSE 0 END), 0),"
            " COALESCE(SUM(CASE WHEN c.state = 'edited' THEN 1 ELSE 0 END), 0),"
            " COALESCE(SUM(CASE WHEN c.state = 'dismissed' THEN 1 ELSE 0 END), 0),"
            " COUNT(DISTINCT c.member_id) FROM coach_assessments c"
            " JOIN answers a ON a.id = c.answer_id"
            " WHERE a.channel_id = ? AND c.state IN ('accepted', 'edited', 'dismissed')"
            " AND c.decided_at >= ?",
            (channel_id, to_db(since)),
        )
        if row is None:
            return DecisionCounts(0, 0, 0, 0)
        return DecisionCounts(int(row[0]), int(row[1]), int(row[2]), int(row[3]))

    async def month_usage(self, platform: str, workspace: str, since: date) -> tuple[int, int]:
        row = await self._db.fetch_one(
            "SELECT COALESCE(SUM(requests), 0), COALESCE(SUM(tokens), 0)"
            " FROM coach_workspace_usage WHERE platform = ? AND workspace = ? AND day >= ?",
            (platform, workspace, since.isoformat()),
        )
        return (int(row[0]), int(row[1])) if row else (0, 0)
