"""A member's rows for their export (``MemberDataStore.member_tables``), naming no one else.

A table only the member's own rows are in is read whole (``SELECT *``), so a new column
shows without a change here. A row that joins them to another member (a vote or review
given or received, a suggestion an admin decided, a mock interview) leaves out every id
that leads to that member: theirs, their answer's, and the row's own id, which their
export or a channel's export would hold beside their name. So an anonymous review cannot
be matched to its writer's public 👍, and a partner is "1 partner", not an id.

A mock interview's rating counts as the candidate's grade of the question (``/quiz pair
rate``), recorded at the rating's time: that grade is exported with ``source`` =
``pair_rating``, not as the member's own.
"""

from __future__ import annotations

import json
from typing import Any

from bot.member_data.store import Tables
from storage.sql.session import Row, SqlDatabase

PAIR_RATING = "pair_rating"
_OWN_ANSWERS = "SELECT id FROM answers WHERE member_id = ?"
_RATING = "g.channel_id, g.week, p.question_id, p.score, p.covered, p.rated_at"

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
    ("coach_opt_outs", "SELECT * FROM coach_opt_outs WHERE member_id = ?"),
    ("coach_probe_opt_outs", "SELECT * FROM coach_probe_opt_outs WHERE member_id = ?"),
    (
        "coach_assessments",
        "SELECT * FROM coach_assessments WHERE member_id = ? ORDER BY id",
    ),
    ("coach_member_usage", "SELECT * FROM coach_member_usage WHERE member_id = ? ORDER BY day"),
    (
        "coach_practice_readings",
        "SELECT * FROM coach_practice_readings WHERE member_id = ? ORDER BY id",
    ),
    ("reveal_reactors", "SELECT * FROM reveal_reactors WHERE member_id = ? ORDER BY id"),
    ("bonuses", "SELECT * FROM bonuses WHERE member_id = ? ORDER BY id"),
    (
        "season_champions",
        "SELECT s.channel_id, s.season, c.title, c.score FROM season_champions c"
        " JOIN seasons s ON s.id = c.season_id WHERE c.member_id = ? ORDER BY s.starts_at",
    ),
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
    ("pair_members", "SELECT * FROM pair_members WHERE member_id = ? ORDER BY channel_id"),
    (
        "dashboard_shares",
        "SELECT * FROM dashboard_shares WHERE member_id = ? ORDER BY channel_id",
    ),
    (
        "pair_ratings_received",
        f"SELECT {_RATING} FROM pair_ratings p JOIN pair_groups g ON g.id = p.group_id"
        " WHERE p.candidate_id = ? ORDER BY p.rated_at",
    ),
    (
        "pair_ratings_given",
        f"SELECT {_RATING} FROM pair_ratings p JOIN pair_groups g ON g.id = p.group_id"
        " WHERE p.interviewer_id = ? ORDER BY p.rated_at",
    ),
)

_BRIEF = "SELECT question_id FROM pair_briefs WHERE group_id = ? AND {role} = ?"


async def member_tables(db: SqlDatabase, member_id: int) -> Tables:
    tables: Tables = {}
    for table, sql in _MEMBER_ROWS:
        tables[table] = [plain_row(row) for row in await db.fetch(sql, (member_id,))]
    tables["pair_groups"] = await _pair_weeks(db, member_id)
    rated = {(r["question_id"], r["rated_at"]) for r in tables["pair_ratings_received"]}
    for grade in tables["grades"]:
        if grade["round_id"] is None and (grade["question_id"], grade["graded_at"]) in rated:
            grade["source"] = PAIR_RATING
    return tables


async def _pair_weeks(db: SqlDatabase, member_id: int) -> list[dict[str, Any]]:
    """Each mock-interview week of the member: where, how many partners, the question they
    were interviewed on and the one they asked."""
    weeks = []
    for row in await db.fetch("SELECT id, channel_id, week, members FROM pair_groups ORDER BY id"):
        members = json.loads(str(row[3]))
        if member_id not in members:
            continue
        interviewed_on = await db.fetch_one(_BRIEF.format(role="candidate_id"), (row[0], member_id))
        asked = await db.fetch_one(_BRIEF.format(role="interviewer_id"), (row[0], member_id))
        weeks.append(
            {
                "channel_id": row[1],
                "week": row[2],
                "partners": len(members) - 1,
                "interviewed_on": None if interviewed_on is None else interviewed_on[0],
                "asked": None if asked is None else asked[0],
            }
        )
    return weeks


def plain_row(row: Row) -> dict[str, Any]:
    return {str(name): value for name, value in zip(row.keys(), row, strict=True)}
