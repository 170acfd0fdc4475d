"""The season aggregate's seam: seasons recorded with their champions and outbox action,
and the aggregates the standings are ranked from (computed by the database)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from bot.kernel.grades import Grade


class Title(StrEnum):
    """A season's titles, in the order the post lists them (stored values)."""

    POINTS = "points"
    IMPROVED = "improved"
    HELPFUL = "helpful"


@dataclass(frozen=True, slots=True)
class Champion:
    title: Title
    member_id: int
    name: str
    score: float


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """A past season of a channel, recorded once: what its post is built from."""

    channel_id: int
    season: str  # "2026-11" or "2026-Q4"
    starts_at: datetime
    ends_at: datetime
    key: str  # the outbox key, "season:<channel>:<season>"
    champions: tuple[Champion, ...] = ()


@dataclass(frozen=True, slots=True)
class MemberTotal:
    """One member's total of a season in a channel (points, or helpful reviews)."""

    member_id: int
    name: str
    platform_id: str  # the platform's member id (away periods are keyed by it)
    total: int


@dataclass(frozen=True, slots=True)
class MemberTitle:
    """A title a member won: where and when."""

    channel_id: int
    channel_name: str
    season: str
    title: Title
    score: float


class SeasonStore(Protocol):
    """Persistence of seasons. Every write is committed before the call returns."""

    async def record_season(self, record: SeasonRecord, round_id: int, at: datetime) -> bool:
        """In one transaction: the season, its champions, and its outbox action (kind
        ``season``, hung on ``round_id``, the last round of the season). False, changing
        nothing, when the channel already has that season."""
        ...

    async def season_by_key(self, key: str) -> SeasonRecord | None: ...

    async def seasons(self, channel_id: int) -> list[SeasonRecord]:
        """The channel's recorded seasons with their champions, newest first."""
        ...

    async def last_round_in_season(
        self, channel_id: int, start: datetime, end: datetime
    ) -> int | None:
        """The id of the channel's latest round scheduled in [start, end), if any."""
        ...

    async def unposted_with_rounds(
        self, channel_ids: Collection[int], season: str, start: datetime, end: datetime
    ) -> set[int]:
        """Those of ``channel_ids`` with a round scheduled in [start, end) and no recorded
        ``season``: the turns a missed slot really cost a post; a few queries for any
        number of channels."""
        ...

    async def points_between(
        self, channel_id: int, start: datetime, end: datetime
    ) -> list[MemberTotal]:
        """Each member's points earned in the channel in [start, end) (answers, bonuses,
        reviews: what the leaderboard counts), highest first; one aggregate query."""
        ...

    async def helpful_reviews_between(
        self, channel_id: int, start: datetime, end: datetime
    ) -> list[MemberTotal]:
        """Each reviewer's reviews written in the channel in [start, end) whose score is
        the answer's author's own current grade of that round, most first."""
        ...

    async def reviewers_between(
        self, channel_id: int, start: datetime, end: datetime
    ) -> list[MemberTotal]:
        """Each member who reviewed in the channel in [start, end), with their count: the
        members who took part without answering."""
        ...

    async def grade_logs(
        self, member_ids: Collection[int], until: datetime
    ) -> dict[int, list[tuple[int, Grade, datetime]]]:
        """Each member's current grades given before ``until``: (question id, grade, when),
        oldest first; the memory model replays them."""
        ...

    async def member_titles(self, member_id: int) -> list[MemberTitle]:
        """Every title the member won, newest season first."""
        ...


def season_key(channel_id: int, season: str) -> str:
    return f"season:{channel_id}:{season}"


def in_order(champions: Sequence[Champion]) -> tuple[Champion, ...]:
    order = list(Title)
    return tuple(sorted(champions, key=lambda c: order.index(c.title)))
