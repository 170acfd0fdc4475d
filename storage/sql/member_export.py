"""A member's rows for their export (``MemberDataStore.member_tables``), naming no one else.

A table only the member's own rows are in is read whole (``SELECT *``), so a new column
shows without a change here. A row that joins them to another member (a vote or review
given or received, a suggestion an admin decided) leaves out every id that leads to that
member: theirs, their answer's, and the row's own id, which their export or a channel's
export would hold beside their name. So an anonymous review cannot be matched to its
writer's public 👍.
"""

from __future__ import annotations

from typing import Any

from bot.member_data.store import Tables
from storage.sql.session import Row, SqlDatabase

_OWN_ANSWERS = "SELECT id FROM answers WHERE member_id = ?"

# (table, the member's rows in it): read for an export, in this order
_MEMBER_ROWS: tuple[tuple[str, str], ...] = (
    ("members", "SELECT * FROM members WHERE id = ?"),
    ("answers", "SELECT * FROM answers WHERE member_id = ? ORDER BY id"),
    (
        "votes_given",
        "SELECT v.id, a.round_id, a.channel_id, v.voted_at FROM votes v"
        " JOIN answers a ON a.id = v.answer_id WHERE v.voter_id = ? ORDER BY v.id",
    ),
    (
        "votes_received",
        f"SELECT answer_id, voted_at FROM votes WHERE answer_id IN ({_OWN_ANSWERS}) ORDER BY id",
    ),
    (
        "reviews_given",
        "SELECT id, round_id, channel_id, score, covered, comment, points, reviewed_at"
        " FROM answer_reviews WHERE reviewer_id = ? ORDER BY id",
    ),
    (
        "reviews_received",
        "SELECT answer_id, round_id, channel_id, score, covered, comment, reviewed_at"
        f" FROM answer_reviews WHERE answer_id IN ({_OWN_ANSWERS}) ORDER BY id",
    ),
    ("best_answers", f"SELECT * FROM best_answers WHERE answer_id IN ({_OWN_ANSWERS})"),
    ("grades", "SELECT * FROM grades WHERE member_id = ? ORDER BY id"),
    ("member_cards", "SELECT * FROM member_cards WHERE member_id = ? ORDER BY question_id"),
    ("member_goals", "SELECT * FROM member_goals WHERE member_id = ?"),
    ("reminders", "SELECT * FROM reminders WHERE member_id = ?"),
    ("notice_members", "SELECT * FROM notice_members WHERE member_id = ? ORDER BY channel_id"),
    ("practice_sessions", "SELECT * FROM practice_sessions WHERE member_id = ? ORDER BY id"),
    ("reveal_reactors", "SELECT * FROM reveal_reactors WHERE member_id = ? ORDER BY id"),
    ("bonuses", "SELECT * FROM bonuses WHERE member_id = ? ORDER BY id"),
    ("flags", "SELECT * FROM flags WHERE member_id = ? ORDER BY id"),
    (
        "suggestions",
        "SELECT id, platform, workspace, channel_id, member_id, body, state, created_at,"
        " decided_at, reason, question_id FROM suggestions WHERE member_id = ? ORDER BY id",
    ),
    (
        "away_periods",
        "SELECT away_periods.* FROM away_periods JOIN members"
        " ON members.workspace = away_periods.workspace AND members.member = away_periods.member"
        " WHERE members.id = ? ORDER BY away_periods.id",
    ),
)


async def member_tables(db: SqlDatabase, member_id: int) -> Tables:
    tables: Tables = {}
    for table, sql in _MEMBER_ROWS:
        tables[table] = [plain_row(row) for row in await db.fetch(sql, (member_id,))]
    return tables


def plain_row(row: Row) -> dict[str, Any]:
    return {str(name): value for name, value in zip(row.keys(), row, strict=True)}
