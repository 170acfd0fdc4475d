"""The ``PairStore`` port on both backends, on the store's database object. A change of a
channel's pairing slot is announced in its transaction (on PostgreSQL, to the other
replicas)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from bot.kernel.models import OutboxDraft
from bot.kernel.pair_facts import PairCounts, PairRating
from bot.kernel.refs import ChannelRef
from bot.kernel.stores import ChangeKind
from bot.pairing.store import PairGroup, PairingDue, PairMember
from storage.records import draft_row
from storage.sql.session import Row, SqlDatabase
from storage.timestamps import to_db

_MEMBER = "channel_id, member_id, member, display_name, direct_channel, topics, timezone, skip_week"
_GROUP = "g.id, g.channel_id, g.week, g.members, g.conversation"
RECORD_BATCH = 200  # pairings inserted by one statement (10 values each): far under the limits


class Pairs:
    """Opt-ins, pairing slots, pairings with their groups, briefs and ratings."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    # opt-ins

    async def pair_member(self, channel_id: int, member_id: int) -> PairMember | None:
        row = await self._db.fetch_one(
            f"SELECT {_MEMBER} FROM pair_members WHERE channel_id = ? AND member_id = ?",
            (channel_id, member_id),
        )
        return None if row is None else _member(row)

    async def pair_members(self, channel_id: int) -> list[PairMember]:
        rows = await self._db.fetch(
            f"SELECT {_MEMBER} FROM pair_members WHERE channel_id = ? ORDER BY member_id",
            (channel_id,),
        )
        return [_member(row) for row in rows]

    async def opt_in(self, member: PairMember, at: datetime) -> None:
        await self._db.change(
            f"INSERT INTO pair_members ({_MEMBER}, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)"
            " ON CONFLICT (channel_id, member_id) DO UPDATE SET topics = excluded.topics,"
            " member = excluded.member, display_name = excluded.display_name,"
            " direct_channel = excluded.direct_channel,"
            " timezone = excluded.timezone, skip_week = NULL",
            (
                member.channel_id,
                member.member_id,
                member.member,
                member.name,
                member.direct,
                json.dumps(list(member.topics)),
                member.timezone,
                to_db(at),
            ),
        )

    async def opt_out(self, channel_id: int, member_id: int) -> bool:
        changed = await self._db.change(
            "DELETE FROM pair_members WHERE channel_id = ? AND member_id = ?",
            (channel_id, member_id),
        )
        return changed == 1

    async def skip_week(self, channel_id: int, member_id: int, week: str) -> bool:
        changed = await self._db.change(
            "UPDATE pair_members SET skip_week = ? WHERE channel_id = ? AND member_id = ?",
            (week, channel_id, member_id),
        )
        return changed == 1

    # slots

    async def pair_schedules(self) -> dict[int, tuple[bool, str | None]]:
        rows = await self._db.fetch("SELECT channel_id, enabled, schedule FROM pair_schedules")
        return {row[0]: (bool(row[1]), row[2]) for row in rows}

    async def pair_schedule(self, channel_id: int) -> tuple[bool, str | None] | None:
        row = await self._db.fetch_one(
            "SELECT enabled, schedule FROM pair_schedules WHERE channel_id = ?", (channel_id,)
        )
        return None if row is None else (bool(row[0]), row[1])

    async def set_pair_schedule(self, channel_id: int, enabled: bool, schedule: str | None) -> None:
        async with self._db.transaction() as session:
            await session.execute(
                "INSERT INTO pair_schedules (channel_id, enabled, schedule) VALUES (?, ?, ?)"
                " ON CONFLICT (channel_id) DO UPDATE SET enabled = excluded.enabled,"
                " schedule = excluded.schedule",
                (channel_id, int(enabled), schedule),
            )
            await self._db.announce(session, ChangeKind.PAIR_SCHEDULE, channel_id)

    # pairings

    async def record_pairing(
        self, channel_id: int, week: str, key: str, action: OutboxDraft, at: datetime
    ) -> bool:
        return key in await self.record_pairings([PairingDue(channel_id, week, key, action)], at)

    async def record_pairings(self, pairings: Sequence[PairingDue], at: datetime) -> set[str]:
        if not pairings:
            return set()
        now = to_db(at)
        recorded: set[str] = set()
        async with self._db.transaction() as session:
            for start in range(0, len(pairings), RECORD_BATCH):
                batch = pairings[start : start + RECORD_BATCH]
                rows = await session.fetch(
                    "INSERT INTO pairings (channel_id, week, key, paired_at) VALUES "
                    + ", ".join("(?, ?, ?, ?)" for _ in batch)
                    + " ON CONFLICT DO NOTHING RETURNING key",
                    [value for p in batch for value in (p.channel_id, p.week, p.key, now)],
                )
                fresh = {row[0] for row in rows}
                recorded |= fresh
                actions = [p.action for p in batch if p.key in fresh]
                if actions:
                    await session.execute(
                        "INSERT INTO outbox (round_id, kind, key, target_platform,"
                        " target_workspace, target_channel, card, state, attempts,"
                        " next_attempt_at, created_at, updated_at) VALUES "
                        + ", ".join("(?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)" for _ in actions)
                        + " ON CONFLICT (key) DO NOTHING",
                        [v for a in actions for v in (*draft_row(a, now), now, now)],
                    )
        return recorded

    async def pairing_groups(self, key: str) -> list[PairGroup] | None:
        pairing = await self._db.fetch_one("SELECT id FROM pairings WHERE key = ?", (key,))
        if pairing is None:
            return None
        rows = await self._db.fetch(
            f"SELECT {_GROUP}, c.platform, c.workspace FROM pair_groups g"
            " JOIN channels c ON c.id = g.channel_id WHERE g.pairing_id = ? ORDER BY g.id",
            (pairing[0],),
        )
        return [_group(row) for row in rows]

    async def store_groups(
        self, key: str, groups: Sequence[tuple[int, ...]], at: datetime
    ) -> list[PairGroup]:
        async with self._db.transaction() as session:
            pairing = await session.fetch_one(
                "SELECT id, channel_id, week FROM pairings WHERE key = ?", (key,)
            )
            if pairing is None:
                raise LookupError(f"no pairing {key}")
            pairing_id, channel_id, week = tuple(pairing)
            # The week's matching is decided here, once: counting the stored groups is not
            # enough on PostgreSQL, where a second replica's count does not see the first's
            # uncommitted groups. This update waits for the first's transaction instead,
            # then finds the week matched and changes nothing.
            decided = await session.execute(
                "UPDATE pairings SET matched_at = ? WHERE id = ? AND matched_at IS NULL",
                (to_db(at), pairing_id),
            )
            if decided == 1:
                await session.execute_many(
                    "INSERT INTO pair_groups (pairing_id, channel_id, week, members)"
                    " VALUES (?, ?, ?, ?)",
                    [(pairing_id, channel_id, week, json.dumps(list(g))) for g in groups],
                )
        found = await self.pairing_groups(key)
        return found or []

    async def set_conversation(self, group_id: int, conversation: ChannelRef) -> None:
        await self._db.change(
            "UPDATE pair_groups SET conversation = ? WHERE id = ?",
            (conversation.channel_id, group_id),
        )

    async def past_partners(self, channel_id: int) -> list[tuple[int, ...]]:
        rows = await self._db.fetch(
            "SELECT members FROM pair_groups WHERE channel_id = ? ORDER BY week, id",
            (channel_id,),
        )
        return [tuple(json.loads(row[0])) for row in rows]

    async def member_groups(self, channel_id: int, member_id: int) -> list[PairGroup]:
        rows = await self._db.fetch(
            f"SELECT {_GROUP}, c.platform, c.workspace FROM pair_groups g"
            " JOIN channels c ON c.id = g.channel_id WHERE g.channel_id = ?"
            " ORDER BY g.week DESC, g.id DESC",
            (channel_id,),
        )
        groups = [_group(row) for row in rows]
        return [g for g in groups if member_id in g.members]

    # briefs and ratings

    async def recent_round_questions(self, channel_id: int, since: datetime) -> set[int]:
        rows = await self._db.fetch(
            "SELECT DISTINCT question_id FROM rounds WHERE channel_id = ? AND scheduled_for >= ?",
            (channel_id, to_db(since)),
        )
        return {int(row[0]) for row in rows}

    async def set_brief(
        self, group_id: int, candidate_id: int, interviewer_id: int, question_id: int
    ) -> None:
        await self._db.change(
            "INSERT INTO pair_briefs (group_id, candidate_id, interviewer_id, question_id)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (group_id, candidate_id) DO NOTHING",
            (group_id, candidate_id, interviewer_id, question_id),
        )

    async def brief_question(self, group_id: int, candidate_id: int) -> int | None:
        row = await self._db.fetch_one(
            "SELECT question_id FROM pair_briefs WHERE group_id = ? AND candidate_id = ?",
            (group_id, candidate_id),
        )
        return None if row is None else int(row[0])

    async def ratings(self, group_id: int) -> list[PairRating]:
        rows = await self._db.fetch(
            "SELECT group_id, interviewer_id, candidate_id, question_id, score, covered"
            " FROM pair_ratings WHERE group_id = ? ORDER BY interviewer_id",
            (group_id,),
        )
        return [
            PairRating(
                row[0],
                row[1],
                row[2],
                row[3],
                row[4],
                None if row[5] is None else tuple(json.loads(row[5])),
            )
            for row in rows
        ]

    async def pair_counts(self, member_id: int) -> PairCounts:
        row = await self._db.fetch_one(
            "SELECT (SELECT COUNT(*) FROM pair_ratings WHERE interviewer_id = ?),"
            " (SELECT COUNT(*) FROM pair_ratings WHERE candidate_id = ?)",
            (member_id, member_id),
        )
        return PairCounts(0, 0) if row is None else PairCounts(int(row[0]), int(row[1]))


def _member(row: Row) -> PairMember:
    channel_id, member_id, member, name, direct, topics, timezone, skip_week = tuple(row)
    return PairMember(
        channel_id, member_id, member, name, direct, tuple(json.loads(topics)), timezone, skip_week
    )


def _group(row: Row) -> PairGroup:
    group_id, channel_id, week, members, conversation, platform, workspace = tuple(row)
    where = None if conversation is None else ChannelRef(platform, workspace, conversation, "")
    return PairGroup(group_id, channel_id, week, tuple(json.loads(members)), where)
