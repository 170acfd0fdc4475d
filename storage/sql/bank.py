"""The ``BankStore`` port on both backends: suggestions, workspace questions, overrides,
flags, bonuses.

It runs on the store's database object, so its transactions never interleave with the
store's on SQLite. Each change of a question's texts is announced in its transaction
(``SqlDatabase.announce``: on PostgreSQL, to the other replicas).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.bank.store import (
    Approval,
    Flag,
    Override,
    OwnQuestion,
    StoredQuestion,
    Suggestion,
    SuggestionState,
    TooManyWaiting,
    Workspace,
)
from bot.kernel.refs import MemberRef
from bot.kernel.stores import ChangeKind
from questions.pack import Question
from storage.sql.session import Row, SqlDatabase
from storage.timestamps import from_db, to_db

_SUGGESTION = """
SELECT s.id, s.platform, s.workspace, s.channel_id, s.body, s.state, s.created_at, s.reason,
       s.question_id, m.member, m.display_name
FROM suggestions s JOIN members m ON m.id = s.member_id
"""
_FLAG = """
SELECT f.id, f.platform, f.workspace, f.channel_id, f.round_id, r.number, f.question_id,
       q.pack, q.question, m.member, m.display_name, f.reason, f.created_at, f.resolved_at,
       f.resolution
FROM flags f
JOIN rounds r ON r.id = f.round_id
JOIN questions q ON q.id = f.question_id
JOIN members m ON m.id = f.member_id
"""


def _body(question: Question) -> str:
    return question.model_dump_json(exclude_defaults=True)


def _question(body: str) -> Question:
    return Question.model_validate_json(body)


class Bank:
    """``BankStore`` on a store's database (either backend)."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def _write(self, sql: str, params: Sequence[Any]) -> int:
        async with self._db.transaction() as session:
            changed = await session.execute(sql, params)
            return changed

    # suggestions

    async def add_suggestion(
        self,
        workspace: Workspace,
        channel_id: int,
        member_id: int,
        question: Question,
        at: datetime,
        *,
        waiting_limit: int | None = None,
    ) -> int:
        async with self._db.transaction() as session:
            if waiting_limit is not None:
                # The member's row lock (PostgreSQL; SQLite's write transactions take turns
                # anyway): a suggestion of theirs sent at the same time waits here until this
                # one commits, then counts it.
                await session.execute(
                    "UPDATE members SET display_name = display_name WHERE id = ?", (member_id,)
                )
                [(waiting,)] = await session.fetch(
                    "SELECT COUNT(*) FROM suggestions WHERE platform = ? AND workspace = ?"
                    " AND member_id = ? AND state = 'pending'",
                    (workspace.platform, workspace.workspace_id, member_id),
                )
                if int(waiting) >= waiting_limit:
                    raise TooManyWaiting(f"member {member_id} has {waiting_limit} waiting")
            new_id = await session.insert_returning_id(
                "INSERT INTO suggestions (platform, workspace, channel_id, member_id, body, state,"
                " created_at) VALUES (?, ?, ?, ?, ?, 'pending', ?)",
                (
                    workspace.platform,
                    workspace.workspace_id,
                    channel_id,
                    member_id,
                    _body(question),
                    to_db(at),
                ),
            )
            assert new_id is not None
            return new_id

    async def get_suggestion(self, suggestion_id: int) -> Suggestion | None:
        rows = await self._db.fetch(f"{_SUGGESTION} WHERE s.id = ?", (suggestion_id,))
        return _suggestion(rows[0]) if rows else None

    async def pending_suggestions(self, workspace: Workspace) -> list[Suggestion]:
        rows = await self._db.fetch(
            f"{_SUGGESTION} WHERE s.platform = ? AND s.workspace = ? AND s.state = 'pending'"
            " ORDER BY s.id",
            (workspace.platform, workspace.workspace_id),
        )
        return [_suggestion(row) for row in rows]

    async def update_suggestion(self, suggestion_id: int, question: Question) -> bool:
        changed = await self._write(
            "UPDATE suggestions SET body = ? WHERE id = ? AND state = 'pending'",
            (_body(question), suggestion_id),
        )
        return changed == 1

    async def approve_suggestion(
        self,
        suggestion_id: int,
        question: Question,
        *,
        decided_by: int,
        at: datetime,
        bonus_points: int,
    ) -> Approval | None:
        async with self._db.transaction() as session:
            # Decided first: a second approval at the same time (a double click) waits for
            # this one's row lock (PostgreSQL), then finds it decided, instead of registering
            # the same question again against its unique key.
            rows = list(
                await session.fetch(
                    "UPDATE suggestions SET state = 'approved', decided_at = ?, decided_by = ?"
                    " WHERE id = ? AND state = 'pending'"
                    " RETURNING platform, workspace, channel_id, member_id",
                    (to_db(at), decided_by, suggestion_id),
                )
            )
            if not rows:
                return None
            platform, workspace, channel_id, member_id = rows[0]
            pack = Workspace(platform, workspace).pack_id()
            new_id = await session.insert_returning_id(
                "INSERT INTO questions (pack, question, topic, content_hash) VALUES (?, ?, ?, ?)",
                (pack, question.id, question.topic, question.content_hash()),
            )
            assert new_id is not None  # a new question's row: no conflict to skip it
            question_id = new_id
            await session.execute(
                "INSERT INTO workspace_questions (question_id, platform, workspace, body,"
                " suggestion_id, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                (question_id, platform, workspace, _body(question), suggestion_id, to_db(at)),
            )
            await session.execute(
                "UPDATE suggestions SET body = ?, question_id = ? WHERE id = ?",
                (_body(question), question_id, suggestion_id),
            )
            assert question_id is not None
            await self._db.announce(session, ChangeKind.QUESTION, question_id)
            bonus = bonus_points > 0
            if bonus:
                await session.execute(
                    "INSERT INTO bonuses (channel_id, member_id, points, reason, awarded_at,"
                    " suggestion_id) VALUES (?, ?, ?, 'approved suggestion', ?, ?)",
                    (channel_id, member_id, bonus_points, to_db(at), suggestion_id),
                )
            return Approval(question_id, bonus)

    async def reject_suggestion(
        self, suggestion_id: int, *, decided_by: int, reason: str | None, at: datetime
    ) -> bool:
        changed = await self._write(
            "UPDATE suggestions SET state = 'rejected', decided_at = ?, decided_by = ?,"
            " reason = ? WHERE id = ? AND state = 'pending'",
            (to_db(at), decided_by, reason, suggestion_id),
        )
        return changed == 1

    # a workspace's own questions and overrides

    async def own_questions(self, workspace: Workspace | None = None) -> list[OwnQuestion]:
        sql = "SELECT question_id, platform, workspace, body FROM workspace_questions"
        params: tuple[str, ...] = ()
        if workspace is not None:
            sql += " WHERE platform = ? AND workspace = ?"
            params = (workspace.platform, workspace.workspace_id)
        rows = await self._db.fetch(f"{sql} ORDER BY question_id", params)
        return [OwnQuestion(r[0], Workspace(r[1], r[2]), _question(r[3])) for r in rows]

    async def save_own_question(self, question_id: int, question: Question, at: datetime) -> None:
        async with self._db.transaction() as session:
            await session.execute(
                "UPDATE workspace_questions SET body = ?, updated_at = ? WHERE question_id = ?",
                (_body(question), to_db(at), question_id),
            )
            await session.execute(
                "UPDATE questions SET topic = ?, content_hash = ? WHERE id = ?",
                (question.topic, question.content_hash(), question_id),
            )
            await self._db.announce(session, ChangeKind.QUESTION, question_id)

    async def overrides(self, workspace: Workspace | None = None) -> list[Override]:
        sql = "SELECT question_id, platform, workspace, body FROM question_overrides"
        params: tuple[str, ...] = ()
        if workspace is not None:
            sql += " WHERE platform = ? AND workspace = ?"
            params = (workspace.platform, workspace.workspace_id)
        rows = await self._db.fetch(f"{sql} ORDER BY id", params)
        return [Override(r[0], Workspace(r[1], r[2]), _question(r[3])) for r in rows]

    async def stored_question(self, question_id: int) -> StoredQuestion:
        own = await self._db.fetch(
            "SELECT question_id, platform, workspace, body FROM workspace_questions"
            " WHERE question_id = ?",
            (question_id,),
        )
        overrides = await self._db.fetch(
            "SELECT question_id, platform, workspace, body FROM question_overrides"
            " WHERE question_id = ? ORDER BY id",
            (question_id,),
        )
        return StoredQuestion(
            question_id,
            next((OwnQuestion(r[0], Workspace(r[1], r[2]), _question(r[3])) for r in own), None),
            tuple(Override(r[0], Workspace(r[1], r[2]), _question(r[3])) for r in overrides),
        )

    async def save_override(self, override: Override, *, member_id: int, at: datetime) -> None:
        space = override.workspace
        async with self._db.transaction() as session:
            await session.execute(
                "INSERT INTO question_overrides (platform, workspace, question_id, body,"
                " updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (platform, workspace, question_id) DO UPDATE SET"
                " body = excluded.body, updated_by = excluded.updated_by,"
                " updated_at = excluded.updated_at",
                (
                    space.platform,
                    space.workspace_id,
                    override.question_id,
                    _body(override.question),
                    member_id,
                    to_db(at),
                ),
            )
            await self._db.announce(session, ChangeKind.QUESTION, override.question_id)

    # flags

    async def add_flag(
        self,
        workspace: Workspace,
        channel_id: int,
        round_id: int,
        member_id: int,
        reason: str,
        at: datetime,
    ) -> int:
        async with self._db.transaction() as session:
            new_id = await session.insert_returning_id(
                "INSERT INTO flags (platform, workspace, channel_id, round_id, question_id,"
                " member_id, reason, created_at)"
                " SELECT ?, ?, ?, id, question_id, ?, ?, ? FROM rounds WHERE id = ?",
                (
                    workspace.platform,
                    workspace.workspace_id,
                    channel_id,
                    member_id,
                    reason,
                    to_db(at),
                    round_id,
                ),
            )
            if new_id is None:
                raise LookupError(f"no round {round_id}")
            return new_id

    async def flags(
        self, workspace: Workspace | None = None, *, open_only: bool = True
    ) -> list[Flag]:
        conditions, params = [], []
        if workspace is not None:
            conditions.append("f.platform = ? AND f.workspace = ?")
            params += [workspace.platform, workspace.workspace_id]
        if open_only:
            conditions.append("f.resolved_at IS NULL")
        where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
        rows = await self._db.fetch(f"{_FLAG}{where} ORDER BY f.id", params)
        return [_flag(row) for row in rows]

    async def get_flag(self, flag_id: int) -> Flag | None:
        rows = await self._db.fetch(f"{_FLAG} WHERE f.id = ?", (flag_id,))
        return _flag(rows[0]) if rows else None

    async def open_flag_by(self, round_id: int, member_id: int) -> Flag | None:
        rows = await self._db.fetch(
            f"{_FLAG} WHERE f.round_id = ? AND f.member_id = ? AND f.resolved_at IS NULL"
            " ORDER BY f.id LIMIT 1",
            (round_id, member_id),
        )
        return _flag(rows[0]) if rows else None

    async def resolve_flags(
        self, workspace: Workspace, question_ids: Sequence[int], resolution: str, at: datetime
    ) -> int:
        marks = ", ".join("?" for _ in question_ids) or "NULL"
        return await self._write(
            "UPDATE flags SET resolved_at = ?, resolution = ? WHERE resolved_at IS NULL"
            f" AND platform = ? AND workspace = ? AND question_id IN ({marks})",
            (to_db(at), resolution, workspace.platform, workspace.workspace_id, *question_ids),
        )

    async def resolve_flag(self, flag_id: int, resolution: str, at: datetime) -> bool:
        changed = await self._write(
            "UPDATE flags SET resolved_at = ?, resolution = ? WHERE id = ? AND resolved_at IS NULL",
            (to_db(at), resolution, flag_id),
        )
        return changed == 1

    async def workspaces(self) -> list[Workspace]:
        rows = await self._db.fetch(
            "SELECT platform, workspace FROM suggestions UNION SELECT platform, workspace"
            " FROM workspace_questions UNION SELECT platform, workspace FROM question_overrides"
            " UNION SELECT platform, workspace FROM flags ORDER BY 1, 2",
            (),
        )
        return [Workspace(r[0], r[1]) for r in rows]


def _suggestion(row: Row) -> Suggestion:
    space = Workspace(row[1], row[2])
    return Suggestion(
        id=row[0],
        workspace=space,
        channel_id=row[3],
        member=MemberRef(space.platform, space.workspace_id, row[9], row[10]),
        question=_question(row[4]),
        state=SuggestionState(row[5]),
        created_at=from_db(row[6]),
        reason=row[7],
        question_id=row[8],
    )


def _flag(row: Row) -> Flag:
    space = Workspace(row[1], row[2])
    return Flag(
        id=row[0],
        workspace=space,
        channel_id=row[3],
        round_id=row[4],
        round_number=row[5],
        question_id=row[6],
        pack=row[7],
        question_key=row[8],
        member=MemberRef(space.platform, space.workspace_id, row[9], row[10]),
        reason=row[11],
        created_at=from_db(row[12]),
        resolved_at=from_db(row[13]) if row[13] else None,
        resolution=row[14],
    )
