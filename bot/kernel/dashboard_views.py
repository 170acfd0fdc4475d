"""What features add to the browser pages (``/quiz dashboard``): a section of the lead's
page or of a member's page, built from figures the feature already computes.

Each feature declares its own sections in its face (:class:`bot.feature.Parts`,
``dashboard_sections``); the composition root collects them, in rank order, into one
:class:`~bot.kernel.own_views.Ranked` per page, which the dashboard reads, so the dashboard
imports no feature and a feature (seasons, the coach) adds a section with one line.

A section is platform- and markup-neutral: its blocks are data (a table, a heatmap, bars),
and the dashboard renders them as HTML with inline SVG. Every section says what its figures
are computed from (``computed_from``), which the page prints under its title.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from bot.kernel.models import ChannelSettings
from bot.kernel.refs import MemberRef


class DashboardPage(StrEnum):
    """Which page a section belongs to."""

    LEAD = "lead"  # a channel's page for its admins: the team, aggregated
    MEMBER = "member"  # one member's own page in one channel


@dataclass(frozen=True, slots=True)
class DashboardView:
    """Whose page is being drawn, for which channel, and when.

    ``member`` and ``member_id`` are the member the page is for (the member's page) or the
    admin who asked for it (the lead's page; sections must not show that admin's own data).
    ``sharing`` are the store ids of the channel's members who let the lead see their own
    rows (``/quiz dashboard share on``); a lead section shows any other member only inside
    an aggregate of at least :data:`SMALLEST_AGGREGATE` members.
    """

    channel: ChannelSettings
    member: MemberRef
    member_id: int | None
    now: datetime
    sharing: frozenset[int] = frozenset()


SMALLEST_AGGREGATE = 3  # fewer members than this are never shown as a group on the lead's page


@dataclass(frozen=True, slots=True)
class Facts:
    """Labelled values (``Reviews due: 4``)."""

    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Table:
    """Rows under headers; every cell is text."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    empty: str = "Nothing yet."


@dataclass(frozen=True, slots=True)
class Heatmap:
    """Values between 0 and 1 (expected recall) by row and column; None: no figure."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[float | None, ...]], ...]
    empty: str = "Nothing graded yet."


@dataclass(frozen=True, slots=True)
class Bars:
    """Counts per label (weeks), one bar group per label, one bar per series."""

    labels: tuple[str, ...]
    series: tuple[tuple[str, tuple[int, ...]], ...]
    empty: str = "Nothing yet."


@dataclass(frozen=True, slots=True)
class Note:
    """A sentence of text."""

    text: str


Block = Facts | Table | Heatmap | Bars | Note


@dataclass(frozen=True, slots=True)
class DashboardSection:
    """One section of a page: a title, what its figures are computed from, its blocks."""

    title: str
    computed_from: str
    blocks: Sequence[Block]


class DashboardSectionSource(Protocol):
    async def __call__(self, view: DashboardView) -> DashboardSection | None: ...
