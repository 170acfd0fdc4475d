"""The recap aggregate's seam: each channel's recap schedule, the recaps recorded for the
outbox, and the week's figures a recap reports."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True, slots=True)
class RecapRecord:
    """A recap queued for a channel: what the outbox needs to render it at send time."""

    channel_id: int
    week: str  # ISO week of the slot in the channel's timezone, e.g. "2026-W48"
    slot: datetime  # the recap covers the seven days before it
    key: str  # the outbox key, "recap:<channel>:<week>"


@dataclass(frozen=True, slots=True)
class WeekAnswer:
    """One answer given in the week, as a recap counts it."""

    member_id: int
    member_name: str
    answered_at: datetime
    scoring: bool
    votes: int
    text: str
    message_id: str
    thread: str | None  # the round's thread the answer was posted in
    best: bool = False  # an admin marked it the best answer of its round
    quality_points: int = 0  # for the key points others judged it covered


@dataclass(frozen=True, slots=True)
class WeekFigures:
    """A channel's week as a recap counts it: its rounds and their answers."""

    rounds: int
    answers: tuple[WeekAnswer, ...]  # oldest first
    round_times: tuple[datetime, ...] = ()  # when each of the rounds was posted for


@dataclass(frozen=True, slots=True)
class StreakRounds:
    """What streaks are computed from: the channel's scheduled rounds up to a moment and
    which of them each member answered."""

    scheduled_round_ids: tuple[int, ...]  # oldest first
    answered: dict[int, frozenset[int]]  # member id -> round ids answered
    names: dict[int, str]  # member id -> name to show
    scheduled_for: tuple[datetime, ...] = ()  # the slots of scheduled_round_ids
    platform_ids: dict[int, str] = field(default_factory=dict)  # member id -> the platform's
    skipped_round_ids: frozenset[int] = frozenset()  # those closed with `/quiz skip`


class RecapStore(Protocol):
    """Persistence of recaps. Every write is committed before the call returns."""

    async def recap_schedule(self, channel_id: int) -> tuple[bool, str | None]:
        """(enabled, schedule); schedule None: the default day and time."""
        ...

    async def recap_schedules(self) -> dict[int, tuple[bool, str | None]]:
        """Every stored (enabled, schedule) by channel id, in one query; a channel with
        no row gets the default."""
        ...

    async def set_recap_schedule(
        self, channel_id: int, enabled: bool, schedule: str | None
    ) -> None: ...

    async def record_recap(self, recap: RecapRecord, round_id: int, at: datetime) -> bool:
        """In one transaction: record the recap and enqueue its outbox action (hung on
        ``round_id``, the last round it reports). False, changing nothing, when the
        channel already has a recap for that week."""
        ...

    async def record_recaps(
        self, recaps: Sequence[tuple[RecapRecord, int]], at: datetime
    ) -> set[str]:
        """``record_recap`` for many (each with the last round it reports) in one
        transaction, a few statements for any number; the keys of those recorded now."""
        ...

    async def record_recap_text(self, key: str, message_id: str, at: datetime) -> None:
        """The recap's text (``message_id``, its first message) is posted and its chart is
        still to send: kept on its pending outbox action (``result_ref``) as the progress a
        retry goes on from, so the text is never posted again."""
        ...

    async def recap_by_key(self, key: str) -> RecapRecord | None: ...

    async def recorded_keys(self, keys: Collection[str]) -> set[str]:
        """Which of ``keys`` have a recap recorded, in one query."""
        ...

    async def last_rounds_between(
        self, windows: Sequence[tuple[int, datetime, datetime]]
    ) -> list[int | None]:
        """``last_round_between`` for each (channel id, start, end), in one query."""
        ...

    async def last_round_between(
        self, channel_id: int, start: datetime, end: datetime
    ) -> int | None:
        """The id of the channel's latest round scheduled in [start, end), if any."""
        ...

    async def week_figures(self, channel_id: int, start: datetime, end: datetime) -> WeekFigures:
        """Rounds scheduled and answers given in [start, end)."""
        ...

    async def streak_rounds(self, channel_id: int, until: datetime) -> StreakRounds: ...

    async def member_answer_times(
        self, channel_id: int, member_id: int, since: datetime
    ) -> list[datetime]:
        """When the member answered in the channel (first answers of rounds) since ``since``."""
        ...
