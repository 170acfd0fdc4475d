"""The pairing aggregate's seam: who opted in to mock interviews in a channel, each
channel's weekly pairing slot, the pairings recorded (once per channel and ISO week) with
their groups, and the interviewers' ratings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.kernel.models import OutboxDraft
from bot.kernel.pair_facts import PairCounts, PairRating
from bot.kernel.refs import ChannelRef


@dataclass(frozen=True, slots=True)
class PairMember:
    """A member who opted in to be paired in a channel."""

    channel_id: int
    member_id: int
    member: str  # their id on the channel's platform
    name: str
    direct: str | None  # their DM channel with the bot (the brief goes there)
    topics: tuple[str, ...]  # what they want to be interviewed on; empty: the channel's
    timezone: str  # theirs (their reminder's) or the channel's, when they opted in
    skip_week: str | None  # the ISO week they skip, e.g. "2026-W49"


@dataclass(frozen=True, slots=True)
class PairGroup:
    """Two members (three for an odd count) paired for one week; each interviews the next
    in ``members`` (the last the first)."""

    id: int
    channel_id: int
    week: str
    members: tuple[int, ...]
    conversation: ChannelRef | None  # where they meet, once it is opened


@dataclass(frozen=True, slots=True)
class PairingDue:
    """A channel's pairing of one ISO week, to record with its outbox action."""

    channel_id: int
    week: str  # e.g. "2026-W49"
    key: str  # the pairing's key, also its action's: "pair:<channel>:<week>"
    action: OutboxDraft


class PairStore(Protocol):
    """Persistence of mock-interview pairs. Every write is committed before it returns."""

    async def pair_member(self, channel_id: int, member_id: int) -> PairMember | None: ...

    async def pair_members(self, channel_id: int) -> list[PairMember]:
        """Everyone opted in in the channel, by member id."""
        ...

    async def opt_in(self, member: PairMember, at: datetime) -> None:
        """Add or replace the member's opt-in (topics and timezone; a skip is cleared)."""
        ...

    async def opt_out(self, channel_id: int, member_id: int) -> bool:
        """False when the member was not opted in."""
        ...

    async def skip_week(self, channel_id: int, member_id: int, week: str) -> bool:
        """Skip the member in ``week``'s pairing; False when they are not opted in."""
        ...

    async def pair_schedules(self) -> dict[int, tuple[bool, str | None]]:
        """Every stored (enabled, schedule) by channel id; no row: the default slot."""
        ...

    async def pair_schedule(self, channel_id: int) -> tuple[bool, str | None] | None:
        """The channel's stored (enabled, schedule); None: no row, the default slot."""
        ...

    async def set_pair_schedule(self, channel_id: int, enabled: bool, schedule: str | None) -> None:
        """Store the channel's slot and announce the change to the other replicas."""
        ...

    async def record_pairing(
        self, channel_id: int, week: str, key: str, action: OutboxDraft, at: datetime
    ) -> bool:
        """In one transaction: the channel's pairing of ``week`` and its outbox ``action``.
        False, changing nothing, when that week's pairing is recorded already."""
        ...

    async def record_pairings(self, pairings: Sequence[PairingDue], at: datetime) -> set[str]:
        """In one transaction: each channel's pairing of its week and its outbox action, a
        few statements for any number of them; the keys of those recorded now (a week whose
        pairing is recorded already is left as it is)."""
        ...

    async def pairing_groups(self, key: str) -> list[PairGroup] | None:
        """The groups of the pairing ``key``; [] when it is recorded but not matched yet,
        None when there is no such pairing."""
        ...

    async def store_groups(
        self, key: str, groups: Sequence[tuple[int, ...]], at: datetime
    ) -> list[PairGroup]:
        """Store the pairing's groups, unless stored already; the groups as stored."""
        ...

    async def set_conversation(self, group_id: int, conversation: ChannelRef) -> None: ...

    async def past_partners(self, channel_id: int) -> list[tuple[int, ...]]:
        """Every group the channel has had, oldest first."""
        ...

    async def member_groups(self, channel_id: int, member_id: int) -> list[PairGroup]:
        """The member's groups in the channel, newest first."""
        ...

    async def recent_round_questions(self, channel_id: int, since: datetime) -> set[int]:
        """The questions of the channel's rounds scheduled since ``since``."""
        ...

    async def set_brief(
        self, group_id: int, candidate_id: int, interviewer_id: int, question_id: int
    ) -> None:
        """The question ``candidate_id`` is interviewed on (kept once set)."""
        ...

    async def brief_question(self, group_id: int, candidate_id: int) -> int | None: ...

    async def ratings(self, group_id: int) -> list[PairRating]: ...

    async def pair_counts(self, member_id: int) -> PairCounts:
        """Rated mock interviews the member gave and took, in every channel."""
        ...
