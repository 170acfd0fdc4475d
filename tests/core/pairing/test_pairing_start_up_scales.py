"""Start-up at many channels catches up the weekly pairings as it does the recaps: what is
due is worked out once per (schedule, timezone, grace window), not once per channel (tested
beside the recaps' catch-up, tests/core/scheduling/test_start_up_scales_with_schedules.py),
and the pairings missed within their grace window are recorded in a fixed number of store
round trips, not a transaction each (on a Monday morning, thousands of channels' pairing
slots may have passed while the bot was down)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.kernel.models import ChannelSettings
from bot.kernel.refs import ChannelRef
from bot.pairing.schedule import pairing_key
from questions.catalog import Catalog
from storage.sqlite.store import SqliteStore
from tests.core.pairing.test_pairing import briefs, intros, opted_in
from tests.core.reviews.test_peer_reviews import catalog_with_key_points
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness, running_service
from tests.round_trips import RoundTripCounter

MONDAY = datetime(2031, 1, 13, 8, 0, tzinfo=UTC)  # before the default pairing, mon 10:00
MONDAY_LATE = datetime(2031, 1, 13, 11, 0, tzinfo=UTC)  # an hour after it: within grace


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


async def test_a_pairing_missed_within_its_grace_window_is_made_once_at_start(
    quiz: QuizHarness,
) -> None:
    await opted_in(quiz, "ann", "bob")  # paired on tuesdays at 10:00 (UTC)
    channels = await quiz.service.store.channels.list_channels()
    quiz.clock.set(datetime(2026, 12, 1, 11, 0, tzinfo=UTC))  # down over the slot, an hour
    await quiz.service.pairings.catch_up(channels)
    await quiz.service.pairings.catch_up(channels)  # a second restart finds it recorded
    await quiz.service.settle()
    assert len(intros(quiz.platform)) == 1
    assert set(briefs(quiz.platform)) == {"ann", "bob"}


async def test_a_pairing_missed_beyond_its_grace_window_is_not_made_at_start(
    quiz: QuizHarness,
) -> None:
    await opted_in(quiz, "ann", "bob")
    channels = await quiz.service.store.channels.list_channels()
    quiz.clock.set(datetime(2026, 12, 1, 16, 30, tzinfo=UTC))  # 6.5 h after the slot
    await quiz.service.pairings.catch_up(channels)
    await quiz.service.settle()
    assert intros(quiz.platform) == [] and briefs(quiz.platform) == {}


async def utc_channels(db_path: Path, count: int) -> None:
    async with SqliteStore.open(db_path) as store:
        for number in range(count):
            ref = ChannelRef("fake", "team", f"C{number}", f"quiz-{number}")
            await store.channels.create_channel(ChannelSettings(id=0, ref=ref, timezone="UTC"))


async def missed_pairings_recorded(
    db_path: Path, platform: FakePlatform, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> int:
    """The round trips of a restart's pairing catch-up, after checking what it recorded."""
    clock = FakeClock(MONDAY)  # the bot starts before the slot: nothing to catch up
    async with running_service(db_path, [platform], clock, catalog) as service:
        channels = await service.store.channels.list_channels()
        clock.set(MONDAY_LATE)  # down over the slot: the restart's catch-up records them
        trips = RoundTripCounter()
        with trips.counting(monkeypatch):
            await service.pairings.catch_up(channels)
        await service.pairings.catch_up(channels)  # a second start: recorded already
        keys = [pairing_key(c.id, "2031-W03") for c in channels]
        assert [await service.store.pairs.pairing_groups(key) for key in keys] == [
            [] for _ in keys
        ], "each channel's pairing of the week is recorded, not matched yet"
        actions = await service.store.outbox.due_actions(clock.now(), 1000)
        assert sorted(a.key for a in actions) == sorted(keys)
    return trips.calls


async def test_missed_pairings_are_recorded_in_a_fixed_number_of_round_trips(
    tmp_path: Path,
    platform: FakePlatform,
    catalog: Catalog,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counts = []
    for channels in (3, 30):
        db_path = tmp_path / f"{channels}.db"
        await utc_channels(db_path, channels)
        counts.append(await missed_pairings_recorded(db_path, platform, catalog, monkeypatch))
    assert counts[0] == counts[1], f"round trips to record 3 and 30 missed pairings: {counts}"
