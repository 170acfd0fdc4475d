"""What features add to a member's own views: a section of ``/quiz me`` and a setting,
with its button, on the member's page (Slack's Home tab).

Each feature declares its own in its face (:class:`bot.feature.Parts`); the composition
root collects them, in rank order, into the :class:`Ranked` that the view's owner reads
(``/quiz me`` in the learning loop, the page in member data), so neither imports them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, Protocol, TypeVar

from bot.kernel.models import ChannelSettings
from bot.kernel.render import Button, Field, Image

HOME_ACTION = "home"  # a page button: its value is a /quiz command run in the member's DMs
IN_CHANNEL = "@"  # a button's command that runs in a channel starts with @<channel id>
CHANNELS_SHOWN = 10  # the channels a member's page lists (their most recent)


class SettingOnPage(Protocol):
    """One member setting on the page: how it stands, and the button that flips it (a
    setting of each channel gives one of each per channel)."""

    async def show(self, member_id: int) -> Sequence[tuple[Field, Button | None]]: ...


@dataclass(frozen=True, slots=True)
class MeView:
    """Whose ``/quiz me`` is being shown, in which quiz channel, and for when."""

    channel: ChannelSettings
    member_id: int
    name: str
    now: datetime
    target: datetime | None  # the date the member's mastery is forecast for
    # whether a section draws its picture (a browser page shows the figures, not the PNG)
    with_image: bool = True


@dataclass(frozen=True, slots=True)
class MeSection:
    """The fields a feature adds to ``/quiz me`` (and the card's picture, at most one)."""

    fields: tuple[Field, ...]
    image: Image | None = None


class MeSectionSource(Protocol):
    async def __call__(self, view: MeView) -> MeSection | None: ...


def channel_name(channel: ChannelSettings) -> str:
    return f"#{channel.ref.name}" if channel.ref.name else channel.ref.channel_id


T = TypeVar("T")


class Ranked(Generic[T]):
    """What every feature adds to one view, lower rank first: filled once every feature is
    built, read whenever the view is shown."""

    def __init__(self) -> None:
        self._items: list[tuple[int, T]] = []

    def add(self, rank: int, item: T) -> None:
        if any(taken == rank for taken, _ in self._items):
            raise ValueError(f"two features take place {rank} in one view")
        self._items.append((rank, item))
        self._items.sort(key=lambda pair: pair[0])

    def __iter__(self) -> Iterator[T]:
        return (item for _, item in self._items)

    def __len__(self) -> int:
        return len(self._items)
