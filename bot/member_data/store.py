"""The member-data aggregate's seam: a member's rows across the quiz's tables, read for an
export and deleted for an erasure, a channel's rows for an admin's export, and the goals a
lead's readiness view lists.

An export is plain rows (column name to value) per table, naming no other member. An
erasure is one transaction: every table that holds the member's data is named in
:data:`ERASED_TABLES`, and each table that names a member but is kept is in
:data:`KEPT_TABLES` with the reason; a test fails for a table in neither.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Protocol

from bot.kernel.refs import ChannelRef, MemberRef

Rows = list[dict[str, Any]]
Tables = dict[str, Rows]

# Every table an erasure deletes the member's rows from.
ERASED_TABLES: tuple[str, ...] = (
    "answers",  # their answers (blind ones included) ...
    "votes",  # ... and the votes others gave them
    "answer_reviews",  # reviews they wrote, and those of their answers
    "best_answers",  # an answer of theirs marked the round's best
    "reveal_reactors",
    "grades",
    "member_cards",
    "member_goals",
    "reminders",
    "notice_members",  # the channels they asked to be told of
    "pair_members",  # their opt-in to mock interviews
    "pair_briefs",  # the questions they were interviewed on (those they asked: see below)
    "pair_ratings",  # the ratings they were given (those they gave: see below)
    "away_periods",  # their time away (by workspace and platform member id)
    "practice_sessions",
    "bonuses",
    "flags",
    "suggestions",  # those not approved: an approved one is a question of the bank now
    "outbox",  # sends to their direct messages (practice steps, reminders), sent or queued
    "unfinished_cards",  # the parts of those sends
)

# Tables that name a member and keep the row, with the reason (nothing personal stays).
KEPT_TABLES: Mapping[str, str] = {
    "members": (
        "the row stays with its name blanked: the votes they gave others and the bank's"
        " edits and decisions they made as an admin point at it"
    ),
    "votes.voter_id": "a vote they gave stays in the other member's points, naming no one",
    "pair_groups": (
        "a partner's history keeps the week they met: the member's place in the group goes"
        " to the workspace's former member (a members row with no platform id and no name)"
    ),
    "pair_briefs.interviewer_id": (
        "the question a partner was interviewed on stays theirs, asked by the former member"
    ),
    "pair_ratings.interviewer_id": (
        "a rating they gave a partner stays the partner's, given by the former member"
    ),
    "suggestions.decided_by": "an admin's decision on a suggestion stays with the bank",
    "question_overrides": "an admin's edit of a question stays with the bank",
    "processed_events": (
        "event ids only, pruned with the event retention: a redelivered answer or command"
        " of theirs is recognised and not recorded again"
    ),
}

# The tables of a channel an admin's export writes.
CHANNEL_TABLES: tuple[str, ...] = ("rounds", "answers", "votes", "grades", "reviews")


@dataclass(frozen=True, slots=True)
class Erased:
    """What an erasure deleted: rows per table (tables with none left out)."""

    member_id: int
    rows: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.rows.values())


@dataclass(frozen=True, slots=True)
class MemberGoal:
    """A member of the workspace who set a goal date."""

    member_id: int
    member: str  # the platform's member id
    name: str
    goal: date


class MemberDataStore(Protocol):
    """Persistence of a member's data as a whole. Every write is committed before the call
    returns."""

    async def find_member(self, ref: MemberRef) -> int | None:
        """The member's id, None when the quiz has never stored anything of them."""
        ...

    async def members_named(self, member: str) -> list[tuple[int, MemberRef]]:
        """Every stored member whose platform id is ``member``, on any platform and in any
        workspace (an admin's erasure names a member by that id)."""
        ...

    async def member_tables(self, member_id: int) -> Tables:
        """Every row of the member's data, per table (``ERASED_TABLES`` and their goal,
        settings, mock interviews and the member row itself), naming no other member: no
        id that leads to one is in it (``pair_groups``: their weeks and how many partners;
        a grade a partner's rating gave has ``source`` = ``pair_rating``)."""
        ...

    async def erase_member(
        self, member_id: int, at: datetime, directs: Sequence[ChannelRef] = ()
    ) -> Erased:
        """Delete the member's data in every table, in one transaction; ``directs``: their
        direct-message channels as the platform knows them (those of their reminder and
        practice sessions are found in the store). Each deleted answer's message is marked
        handled at ``at``, so a platform replaying it (Discord's catch-up reads open
        rounds' threads back, with the message id as the event id) does not record it
        again, and kept as erased (``erased_answers``: round and message id), so the same
        message delivered under any other event id, or edited, stores nothing either."""
        ...

    async def channel_tables(self, channel_id: int) -> Tables:
        """The channel's rounds, answers, votes, grades and reviews, per table."""
        ...

    async def member_channels(self, member_id: int) -> list[int]:
        """The channels the member answered in, most answers first."""
        ...

    async def workspace_goals(self, platform: str, workspace: str) -> list[MemberGoal]:
        """The members of the workspace with a goal date, the nearest first."""
        ...
