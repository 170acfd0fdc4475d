"""ChannelSync against a store double: what it reads again, and how listening degrades.

The PostgreSQL half (real NOTIFY, a dropped connection) is in
tests/storage/test_replicas_see_channel_changes.py; these cover the decisions offline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import pytest

from bot.channel_sync import ChannelSync
from bot.kernel.errors import QuizError
from bot.kernel.followed import Followed
from bot.kernel.models import ChannelSettings
from bot.kernel.refs import ChannelRef
from bot.kernel.stores import ChangeKind


def settings(channel_id: int, emoji: str = "💡") -> ChannelSettings:
    return ChannelSettings(
        channel_id, ChannelRef("fake", "team", f"C{channel_id}"), "UTC", reveal_emoji=emoji
    )


class Listener:
    def __init__(self) -> None:
        self.answering = True
        self.closed = False

    async def alive(self) -> bool:
        return self.answering and not self.closed

    async def close(self) -> None:
        self.closed = True


class SharedStore:
    """Channels with versions, whose listener a test can refuse, drop or notify through."""

    def __init__(self) -> None:
        self.channels: dict[int, ChannelSettings] = {}
        self.versions: dict[int, int] = {}
        self.refuse_listening = False
        self.failing_reads: set[int] = set()
        self.reads: list[int] = []
        self.listeners: list[Listener] = []
        self.changed: Callable[[ChangeKind, int], None] | None = None
        self.lost: Callable[[], None] | None = None

    def write(self, channel: ChannelSettings) -> None:
        self.channels[channel.id] = channel
        self.versions[channel.id] = self.versions.get(channel.id, 0) + 1

    async def channel_versions(self) -> dict[int, int]:
        return dict(self.versions)

    async def question_versions(self) -> dict[int, int]:
        return {}  # the bank's and reminders' versions come with each test's Followed

    async def reminder_versions(self) -> dict[int, int]:
        return {}

    async def pair_schedule_versions(self) -> dict[int, int]:
        return {}

    async def listen_changes(
        self, changed: Callable[[ChangeKind, int], None], lost: Callable[[], None]
    ) -> Listener:
        if self.refuse_listening:
            raise QuizError("cannot listen at postgresql://quizbot:***@db/quiz: refused")
        self.changed, self.lost = changed, lost
        self.listeners.append(Listener())
        return self.listeners[-1]

    async def read(self, channel_id: int) -> ChannelSettings | None:
        self.reads.append(channel_id)
        if channel_id in self.failing_reads:
            raise QuizError("the database did not answer")
        return self.channels.get(channel_id)


@pytest.fixture
def store() -> SharedStore:
    shared = SharedStore()
    shared.write(settings(1))
    shared.write(settings(2))
    return shared


def sync_on(store: SharedStore, applied: list[ChannelSettings]) -> ChannelSync:
    return ChannelSync(store, store.read, applied.append)


async def test_the_check_reads_again_only_the_channels_whose_version_changed(
    store: SharedStore,
) -> None:
    applied: list[ChannelSettings] = []
    sync = sync_on(store, applied)
    await sync.begin()
    store.write(settings(2, "🔍"))
    store.write(settings(3))  # set up by another replica

    assert await sync.reconcile() == 2
    assert applied == [settings(2, "🔍"), settings(3)]
    assert await sync.reconcile() == 0
    await sync.stop()


async def test_a_channel_that_could_not_be_read_is_read_at_the_next_check(
    store: SharedStore,
) -> None:
    applied: list[ChannelSettings] = []
    sync = sync_on(store, applied)
    await sync.begin()
    store.write(settings(1, "🔍"))
    store.failing_reads.add(1)
    assert await sync.reconcile() == 1
    assert applied == []

    store.failing_reads.clear()
    assert await sync.reconcile() == 1
    assert applied == [settings(1, "🔍")]
    await sync.stop()


async def test_notices_are_applied_in_the_order_they_came(store: SharedStore) -> None:
    applied: list[ChannelSettings] = []
    sync = sync_on(store, applied)
    await sync.begin()
    sync.start()
    store.write(settings(2, "🔍"))
    store.write(settings(1, "🔍"))
    arrived = sync.next_refresh(1)
    assert store.changed is not None
    store.changed(ChangeKind.CHANNEL, 2)
    store.changed(ChangeKind.CHANNEL, 1)
    assert await asyncio.wait_for(arrived, 1) == settings(1, "🔍")
    assert applied == [settings(2, "🔍"), settings(1, "🔍")]
    await sync.stop()
    assert store.listeners[0].closed


async def test_a_store_that_refuses_to_listen_is_warned_of_once_and_checked_instead(
    store: SharedStore, caplog: pytest.LogCaptureFixture
) -> None:
    applied: list[ChannelSettings] = []
    sync = sync_on(store, applied)
    store.refuse_listening = True
    with caplog.at_level(logging.INFO, logger="bot.channel_sync"):
        await sync.begin()
        store.write(settings(1, "🔍"))
        assert await sync.reconcile() == 1
        assert await sync.reconcile() == 0
        assert not sync.listening
        [warning] = caplog.records
        assert warning.levelno == logging.WARNING
        assert "cannot listen for channel changes" in warning.getMessage()
        assert "***" in warning.getMessage()  # as the store said it: no password

        store.refuse_listening = False
        await sync.reconcile()
    assert sync.listening
    assert [r.getMessage() for r in caplog.records[1:]] == ["listening for channel changes again"]
    assert applied == [settings(1, "🔍")]
    await sync.stop()


async def test_a_listener_that_stopped_answering_is_replaced_at_the_check(
    store: SharedStore, caplog: pytest.LogCaptureFixture
) -> None:
    applied: list[ChannelSettings] = []
    sync = sync_on(store, applied)
    await sync.begin()
    with caplog.at_level(logging.WARNING, logger="bot.channel_sync"):
        store.listeners[0].answering = False  # a half-open connection: no notice arrives
        store.write(settings(2, "🔍"))
        assert await sync.reconcile() == 1
    assert store.listeners[0].closed and len(store.listeners) == 2
    assert sync.listening
    [warning] = caplog.records
    assert "lost the connection" in warning.getMessage()
    assert applied == [settings(2, "🔍")]
    await sync.stop()


async def test_a_lost_connection_is_warned_of_once(
    store: SharedStore, caplog: pytest.LogCaptureFixture
) -> None:
    sync = sync_on(store, [])
    await sync.begin()
    assert store.lost is not None
    with caplog.at_level(logging.WARNING, logger="bot.channel_sync"):
        store.lost()
        store.lost()
    assert len(caplog.records) == 1
    assert not sync.listening
    await sync.stop()


async def test_a_followed_row_that_is_gone_is_applied_as_gone_and_notices_name_their_kind(
    store: SharedStore,
) -> None:
    reminders = {7: "08:30", 8: "09:00"}
    versions = {7: 1, 8: 1}
    applied: list[tuple[int, str | None]] = []

    async def reminder_versions() -> dict[int, int]:
        return dict(versions)

    async def read(member_id: int) -> str | None:
        return reminders.get(member_id)

    followed = Followed(
        ChangeKind.REMINDER, reminder_versions, read, lambda n, r: applied.append((n, r))
    )
    channels: list[ChannelSettings] = []
    sync = ChannelSync(store, store.read, channels.append, also=(followed,))
    await sync.begin()
    del reminders[7], versions[7]  # turned off through another replica, its notice lost
    assert await sync.reconcile() == 1
    assert applied == [(7, None)]
    assert await sync.reconcile() == 0

    sync.start()
    reminders[8] = "10:00"
    arrived = sync.next_refresh(8, ChangeKind.REMINDER)
    assert store.changed is not None
    store.changed(ChangeKind.REMINDER, 8)
    assert await asyncio.wait_for(arrived, 1) == "10:00"
    assert applied == [(7, None), (8, "10:00")]
    assert channels == []  # a reminder's number is no channel's
    await sync.stop()


async def test_stopping_ends_the_sync_even_when_a_read_swallows_the_cancellation(
    store: SharedStore,
) -> None:
    """A replica's shutdown waited for ever, once in about twenty runs of the replica
    tests: stopping cancelled the sync while it read a changed row, the read's library
    call finished in the same loop turn and swallowed the cancellation (as Python 3.11's
    ``wait_for`` does), and the sync went on waiting for its next notice."""
    reading = asyncio.Event()

    async def read_swallowing_a_cancellation(channel_id: int) -> ChannelSettings | None:
        reading.set()
        with contextlib.suppress(asyncio.CancelledError):  # it came in the same turn
            await asyncio.Event().wait()
        return store.channels.get(channel_id)

    sync = ChannelSync(store, read_swallowing_a_cancellation, lambda _: None)
    await sync.begin()
    sync.start()
    assert store.changed is not None
    store.changed(ChangeKind.CHANNEL, 1)
    await reading.wait()

    async with asyncio.timeout(2):
        await sync.stop()
    assert store.listeners[0].closed
