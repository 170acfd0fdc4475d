"""The ``MemberDataStore`` port on both backends: a member's rows read for an export and
deleted in one transaction for an erasure, a channel's rows for an admin's export.

The member's direct-message channels (where practice steps and reminders went) are read
from their practice sessions and reminder inside the erasing transaction, so the outbox
rows of those sends, queued or done, go with the rest: a queued reminder or practice step
cannot send their data again after the erasure; so do the messages to teammates that name
them (``storage.sql.sends_naming_a_member``). What the teammates keep is in
``storage.sql.erasure_for_the_team``. The change of their reminder is announced, so the
other replicas drop its job.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from bot.blind.posts import PLACEHOLDER_PREFIX
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.stores import ChangeKind
from bot.member_data.store import Erased, MemberGoal, Rows, Tables
from storage.sql.erasure_for_the_team import (
    former_member,
    keep_pair_history,
    keep_review_points,
    keep_review_ticks,
)
from storage.sql.member_cache import MemberCache
from storage.sql.member_export import member_tables, plain_row
from storage.sql.sends_naming_a_member import sends_naming
from storage.sql.session import Params, Session, SqlDatabase
from storage.timestamps import to_db

_OWN_ANSWERS = "SELECT id FROM answers WHERE member_id = ?"

# The platform and message id of each of the member's answers: marked handled (below).
_ANSWER_MESSAGES = (
    "SELECT channels.platform, answers.message_id FROM answers"
    " JOIN channels ON channels.id = answers.channel_id WHERE answers.member_id = ?"
)
_MARK_HANDLED = (
    "INSERT INTO processed_events (platform, event_id, processed_at) VALUES (?, ?, ?)"
    " ON CONFLICT (platform, event_id) DO UPDATE SET processed_at = excluded.processed_at"
)

# Their answers' messages (not a blind answer's placeholder, which is theirs again if they
# come back): the same message delivered again stores nothing (storage.sql.scoring).
_TOMBSTONES = (
    "INSERT INTO erased_answers (round_id, message_id, erased_at)"
    " SELECT round_id, message_id, ? FROM answers WHERE member_id = ? AND message_id NOT LIKE ?"
    " ON CONFLICT (round_id, message_id) DO NOTHING"
)

_DIRECT_CHANNELS = (
    "SELECT platform, workspace, direct_channel FROM practice_sessions WHERE member_id = ?"
    " UNION SELECT c.platform, c.workspace, p.direct_channel FROM pair_members p"
    " JOIN channels c ON c.id = p.channel_id"
    " WHERE p.member_id = ? AND p.direct_channel IS NOT NULL"
    " UNION SELECT platform, workspace, direct_channel FROM reminders WHERE member_id = ?"
    " UNION SELECT platform, workspace, direct_channel FROM notice_members WHERE member_id = ?"
)
_DIRECT_SENDS = (
    "SELECT key FROM outbox WHERE round_id IS NULL"
    " AND target_platform = ? AND target_workspace = ? AND target_channel = ?"
)

# (table, statement): deleted in this order (what references a row goes first)
_ERASE: tuple[tuple[str, str], ...] = (
    ("votes", f"DELETE FROM votes WHERE answer_id IN ({_OWN_ANSWERS})"),
    ("answer_reviews", f"DELETE FROM answer_reviews WHERE answer_id IN ({_OWN_ANSWERS})"),
    ("answer_reviews", "DELETE FROM answer_reviews WHERE reviewer_id = ?"),
    ("best_answers", f"DELETE FROM best_answers WHERE answer_id IN ({_OWN_ANSWERS})"),
    ("coach_assessments", "DELETE FROM coach_assessments WHERE member_id = ?"),
    ("answers", "DELETE FROM answers WHERE member_id = ?"),
    ("reveal_reactors", "DELETE FROM reveal_reactors WHERE member_id = ?"),
    ("grades", "DELETE FROM grades WHERE member_id = ?"),
    ("member_cards", "DELETE FROM member_cards WHERE member_id = ?"),
    ("member_goals", "DELETE FROM member_goals WHERE member_id = ?"),
    ("reminders", "DELETE FROM reminders WHERE member_id = ?"),
    ("notice_members", "DELETE FROM notice_members WHERE member_id = ?"),
    ("coach_opt_outs", "DELETE FROM coach_opt_outs WHERE member_id = ?"),
    ("coach_probe_opt_outs", "DELETE FROM coach_probe_opt_outs WHERE member_id = ?"),
    ("coach_member_usage", "DELETE FROM coach_member_usage WHERE member_id = ?"),
    ("pair_members", "DELETE FROM pair_members WHERE member_id = ?"),
    ("dashboard_shares", "DELETE FROM dashboard_shares WHERE member_id = ?"),
    ("coach_practice_readings", "DELETE FROM coach_practice_readings WHERE member_id = ?"),
    ("practice_sessions", "DELETE FROM practice_sessions WHERE member_id = ?"),
    ("bonuses", "DELETE FROM bonuses WHERE member_id = ?"),
    ("season_champions", "DELETE FROM season_champions WHERE member_id = ?"),
    ("flags", "DELETE FROM flags WHERE member_id = ?"),
    ("suggestions", "DELETE FROM suggestions WHERE member_id = ? AND state <> 'approved'"),
    (
        "away_periods",
        "DELETE FROM away_periods WHERE EXISTS (SELECT 1 FROM members WHERE members.id = ?"
        " AND members.workspace = away_periods.workspace"
        " AND members.member = away_periods.member)",
    ),
)

_CHANNEL_ROWS: tuple[tuple[str, str], ...] = (
    ("rounds", "SELECT * FROM rounds WHERE channel_id = ? ORDER BY number"),
    ("answers", "SELECT * FROM answers WHERE channel_id = ? ORDER BY id"),
    (
        "votes",
        "SELECT votes.* FROM votes JOIN answers ON answers.id = votes.answer_id"
        " WHERE answers.channel_id = ? ORDER BY votes.id",
    ),
    ("grades", "SELECT * FROM grades WHERE channel_id = ? ORDER BY id"),
    ("reviews", "SELECT * FROM answer_reviews WHERE channel_id = ? ORDER BY id"),
)


class MemberData:
    """A member's data as a whole, and a channel's for an admin's export."""

    def __init__(self, db: SqlDatabase, members: MemberCache) -> None:
        self._db = db
        self._members = members  # the store's cached names: an erased one is forgotten

    async def find_member(self, ref: MemberRef) -> int | None:
        row = await self._db.fetch_one(
            "SELECT id FROM members WHERE platform = ? AND workspace = ? AND member = ?",
            (ref.platform, ref.workspace, ref.member_id),
        )
        return None if row is None else int(row[0])

    async def members_named(self, member: str) -> list[tuple[int, MemberRef]]:
        rows = await self._db.fetch(
            "SELECT id, platform, workspace, member, display_name FROM members"
            " WHERE member = ? ORDER BY id",
            (member,),
        )
        return [(int(r[0]), MemberRef(str(r[1]), str(r[2]), str(r[3]), str(r[4]))) for r in rows]

    async def member_tables(self, member_id: int) -> Tables:
        return await member_tables(self._db, member_id)

    async def erase_member(
        self, member_id: int, at: datetime, directs: Sequence[ChannelRef] = ()
    ) -> Erased:
        deleted: dict[str, int] = {}
        known = [(d.platform, d.workspace, d.channel_id) for d in directs]
        async with self._db.transaction() as session:
            answered = await session.fetch(_ANSWER_MESSAGES, (member_id,))
            await session.execute_many(
                _MARK_HANDLED, [(str(r[0]), str(r[1]), to_db(at)) for r in answered]
            )
            await session.execute(_TOMBSTONES, (to_db(at), member_id, f"{PLACEHOLDER_PREFIX}%"))
            sends = await _direct_sends(session, member_id, known)
            sends = sorted({*sends, *await sends_naming(session, member_id)})
            for key in sends:
                deleted["unfinished_cards"] = deleted.get("unfinished_cards", 0) + (
                    await session.execute("DELETE FROM unfinished_cards WHERE key = ?", (key,))
                )
                deleted["outbox"] = deleted.get("outbox", 0) + (
                    await session.execute("DELETE FROM outbox WHERE key = ?", (key,))
                )
            await keep_review_points(session, member_id)
            await keep_review_ticks(session, member_id)
            former = await former_member(session, member_id)
            for table, count in (await keep_pair_history(session, member_id, former)).items():
                deleted[table] = deleted.get(table, 0) + count
            for table, sql in _ERASE:
                deleted[table] = deleted.get(table, 0) + await session.execute(sql, (member_id,))
            await session.execute("UPDATE members SET display_name = '' WHERE id = ?", (member_id,))
            await self._db.announce(session, ChangeKind.REMINDER, member_id)
        self._members.forget(member_id)
        return Erased(member_id, {t: n for t, n in deleted.items() if n})

    async def channel_tables(self, channel_id: int) -> Tables:
        return {table: await self._rows(sql, (channel_id,)) for table, sql in _CHANNEL_ROWS}

    async def member_channels(self, member_id: int) -> list[int]:
        rows = await self._db.fetch(
            "SELECT channel_id, COUNT(*) FROM answers WHERE member_id = ?"
            " GROUP BY channel_id ORDER BY COUNT(*) DESC, channel_id",
            (member_id,),
        )
        return [int(row[0]) for row in rows]

    async def workspace_goals(self, platform: str, workspace: str) -> list[MemberGoal]:
        rows = await self._db.fetch(
            "SELECT members.id, members.member, members.display_name, member_goals.target_date"
            " FROM member_goals JOIN members ON members.id = member_goals.member_id"
            " WHERE members.platform = ? AND members.workspace = ?"
            " ORDER BY member_goals.target_date, members.id",
            (platform, workspace),
        )
        return [
            MemberGoal(int(r[0]), str(r[1]), str(r[2]), date.fromisoformat(str(r[3]))) for r in rows
        ]

    async def _rows(self, sql: str, params: Params) -> Rows:
        return [plain_row(row) for row in await self._db.fetch(sql, params)]


async def _direct_sends(
    session: Session, member_id: int, known: list[tuple[str, str, str]]
) -> list[str]:
    """The outbox keys of every send to the member's direct-message channels."""
    stored = await session.fetch(_DIRECT_CHANNELS, (member_id,) * 4)
    channels = {*known, *(tuple(row) for row in stored)}
    keys: set[str] = set()
    for channel in sorted(channels):
        keys.update(str(row[0]) for row in await session.fetch(_DIRECT_SENDS, channel))
    return sorted(keys)
