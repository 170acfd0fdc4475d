"""The store ports every feature shares: channels, installation facts, handled deliveries,
and the change notices replicas send each other."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from enum import StrEnum
from typing import Protocol, runtime_checkable

from bot.kernel.models import (
    ChannelSettings,
    PruneBatch,
)
from bot.kernel.refs import ChannelRef


class ChannelStore(Protocol):
    """The channels' quiz settings."""

    async def get_channel(self, ref: ChannelRef) -> ChannelSettings | None: ...

    async def get_channel_by_id(self, channel_id: int) -> ChannelSettings | None: ...

    async def create_channel(self, settings: ChannelSettings) -> ChannelSettings:
        """Insert (``settings.id`` is ignored) or return the existing row for ``settings.ref``."""
        ...

    async def update_channel(
        self, before: ChannelSettings, after: ChannelSettings
    ) -> ChannelSettings:
        """Store the settings ``after`` changes of ``before`` (the settings the change was
        made to) and leave the others as they are stored: another replica may have
        changed them since ``before`` was read. Returns the channel as stored now."""
        ...

    async def list_channels(self) -> list[ChannelSettings]: ...


class MetaStore(Protocol):
    """Small key/value facts of the installation (e.g. the hash of synced Discord commands)."""

    # small key/value facts (e.g. the hash of synced Discord commands)
    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...


class DeliveryStore(Protocol):
    """Inbound event ids already handled, so a redelivered event is dropped."""

    async def mark_event_processed(self, platform: str, event_id: str, at: datetime) -> bool:
        """False when this event id was already recorded (a duplicate delivery)."""
        ...

    async def event_processed(self, platform: str, event_id: str) -> bool:
        """True when this event id was recorded (read only: nothing is marked)."""
        ...

    async def prune_events(self, before: datetime, limit: int) -> PruneBatch:
        """Forget up to ``limit`` inbound event ids recorded before ``before``."""
        ...


class ChangeKind(StrEnum):
    """What a change another process made is to (``ChannelChanges``), and what its number
    names."""

    CHANNEL = "channel"  # a channel's settings, by channel id
    QUESTION = "question"  # a question's texts in the bank (its own, overrides), by question id
    REMINDER = "reminder"  # a member's daily reminder, by member id
    PAIR_SCHEDULE = "pair_schedule"  # a channel's weekly pairing slot, by channel id


class ChannelListener(Protocol):
    """Hearing of changes, as :meth:`ChannelChanges.listen_changes` started it."""

    async def alive(self) -> bool:
        """Whether it still hears changes (asks the database); False once the connection
        is lost, and from then on."""
        ...

    async def close(self) -> None:
        """Stop hearing changes and let go of the connection."""
        ...


@runtime_checkable
class ChannelChanges(Protocol):
    """A store that several processes share (PostgreSQL behind replicas) tells each of
    them of the channels, bank questions, reminders and pairing slots another one
    changed, so their
    cached settings, questions and schedules follow. A store of one process (SQLite)
    has no need of it and offers none."""

    async def channel_versions(self) -> dict[int, int]:
        """Every channel's version: a number that changes whenever its settings do."""
        ...

    async def question_versions(self) -> dict[int, int]:
        """The version of every question the bank has texts of (a workspace's own
        question, a bundled one a workspace overrides): a number that changes whenever
        any of its texts does."""
        ...

    async def reminder_versions(self) -> dict[int, int]:
        """Every member's reminder's version, by member id (absent: none set)."""
        ...

    async def pair_schedule_versions(self) -> dict[int, int]:
        """Every channel's pairing slot's version, by channel id (absent: the default)."""
        ...

    async def listen_changes(
        self, changed: Callable[[ChangeKind, int], None], lost: Callable[[], None]
    ) -> ChannelListener:
        """From now until the listener is closed, call ``changed(kind, number)`` for
        every change any process commits (a channel by its id, a question by its id, a
        reminder by its member's id, a pairing slot by its channel's id), and ``lost()``
        once if the connection it listens on is lost (changes are then missed). Raises
        ``QuizError`` when it cannot listen."""
        ...
