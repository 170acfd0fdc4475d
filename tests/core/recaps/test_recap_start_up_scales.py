"""Start-up at many channels: loading recap settings and catching up on missed recaps cost
a fixed number of statements, not a few per channel, and missed recaps are summed up in one
warning rather than one per channel."""

from __future__ import annotations

import logging
from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.kernel.models import ChannelSettings
from bot.kernel.refs import ChannelRef
from questions.catalog import Catalog
from storage.sql.recaps import Recaps
from storage.sqlite.store import SqliteStore
from tests.core.scheduling.test_start_up_work_per_channel import raw_channels
from tests.fakes import FakeClock, FakePlatform
from tests.harness import running_service
from tests.round_trips import RoundTripCounter

FRIDAY_RECAP = datetime(2026, 12, 4, 16, 0, tzinfo=UTC)  # the default recap slot, in UTC


async def add_channels(db_path: Path, count: int, *, catalog: Catalog | None = None) -> None:
    """``count`` quiz channels; with ``catalog``, each with a round in the recap's week."""
    async with SqliteStore.open(db_path) as store:
        question_ids = (
            []
            if catalog is None
            else list((await store.rounds.sync_questions(catalog.keys())).values())
        )
        for number in range(count):
            ref = ChannelRef("fake", "team", f"C{number}", f"quiz-{number}")
            channel = await store.channels.create_channel(
                ChannelSettings(id=0, ref=ref, timezone="UTC")
            )
            if question_ids:
                monday = FRIDAY_RECAP - timedelta(days=4, hours=7)  # Monday 09:00
                await store.rounds.create_round(
                    channel.id,
                    lambda asked: question_ids[0],
                    monday,
                    scheduled=True,
                    created_at=monday,
                    actions=(),
                )


async def recap_start_up_statements(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog
) -> list[str]:
    """The SQL statements that loading recap settings and catching up run."""
    statements: list[str] = []
    async with running_service(db_path, [platform], clock, catalog) as service:
        channels = await service.store.channels.list_channels()
        store = service.store
        assert isinstance(store, SqliteStore)
        await store.database.connection().set_trace_callback(statements.append)
        await service.recaps.load(channels)
        await service.recaps.catch_up(channels)
        return list(statements)  # not what stopping runs


@pytest.mark.parametrize("grace_passed", [True, False], ids=["missed", "within-grace"])
async def test_recap_start_up_statements_do_not_grow_with_channels(
    tmp_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    grace_passed: bool,
) -> None:
    clock.set(FRIDAY_RECAP + timedelta(hours=7 if grace_passed else 1))
    counts = []
    for channels in (3, 30):
        db_path = tmp_path / f"{channels}.db"
        await add_channels(db_path, channels)
        counts.append(len(await recap_start_up_statements(db_path, platform, clock, catalog)))
    assert counts[0] == counts[1], f"statements at 3 and 30 channels: {counts}"


async def test_missed_recaps_are_one_warning_not_one_per_channel(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await add_channels(db_path, 30, catalog=catalog)  # rounds: each recap had something to say
    clock.set(FRIDAY_RECAP + timedelta(hours=7))  # beyond the 6 h grace window
    with caplog.at_level(logging.INFO, logger="bot.recaps.weekly"):
        async with running_service(db_path, [platform], clock, catalog):
            pass
    warnings = [
        r for r in caplog.records if r.levelno >= logging.WARNING and r.name == "bot.recaps.weekly"
    ]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    message = warnings[0].getMessage()
    assert "30 channel(s)" in message
    assert "older than the 6 h grace window; skipped" in message


async def test_recaps_due_at_start_are_recorded_in_a_fixed_number_of_statements(
    tmp_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog
) -> None:
    counts = []
    for channels in (3, 30):
        db_path = tmp_path / f"{channels}.db"
        await add_channels(db_path, channels, catalog=catalog)  # each had a round this week
        clock.set(FRIDAY_RECAP - timedelta(hours=1))  # started before the recap slot
        statements: list[str] = []
        async with running_service(db_path, [platform], clock, catalog) as service:
            channels_now = await service.store.channels.list_channels()
            clock.set(FRIDAY_RECAP + timedelta(hours=1))  # down over it: caught up, within grace
            store = service.store
            assert isinstance(store, SqliteStore)
            await store.database.connection().set_trace_callback(statements.append)
            await service.recaps.catch_up(channels_now)
            counts.append(len(statements))  # not what the checks below run
            keys = [f"recap:{c.id}:2026-W49" for c in channels_now]
            assert await store.recaps.recorded_keys(keys) == set(keys)
            await service.settle()
        recaps = [m for m in platform.messages if m.card.title.startswith("Weekly recap")]
        assert len(recaps) == channels
        platform.messages.clear()
    assert counts[0] == counts[1], f"statements recording 3 and 30 recaps: {counts}"


async def test_missed_recaps_of_thousands_of_channels_are_checked_in_a_few_round_trips(
    tmp_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db_path = tmp_path / "q.db"
    await raw_channels(db_path, 3_000)
    clock.set(FRIDAY_RECAP + timedelta(days=5))  # every channel's last recap: days ago
    async with running_service(db_path, [platform], clock, catalog) as service:
        channels = await service.store.channels.list_channels()
        trips = RoundTripCounter()
        with trips.counting(monkeypatch):
            await service.recaps.catch_up(channels)
    # whether each was recorded, and whether its week had a round: 500 a statement
    assert trips.calls <= 16, f"{trips.calls} round trips for 3,000 channels' missed recaps"


@pytest.mark.parametrize(
    ("rounds", "first_start"),
    [(True, timedelta(hours=1)), (True, timedelta(days=5)), (False, timedelta(days=5))],
    ids=["recorded-in-time", "skipped-and-warned", "no-round-that-week"],
)
async def test_a_restart_looks_up_no_missed_recap_already_checked(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    rounds: bool,
    first_start: timedelta,
) -> None:
    await add_channels(db_path, 30, catalog=catalog if rounds else None)
    looked_up: list[int] = []
    recorded_keys = Recaps.recorded_keys

    async def counted(self: Recaps, keys: Collection[str]) -> set[str]:
        looked_up.append(len(keys))
        return await recorded_keys(self, keys)

    monkeypatch.setattr(Recaps, "recorded_keys", counted)
    for since_the_slot in (first_start, timedelta(days=5), timedelta(days=5, hours=2)):
        clock.set(FRIDAY_RECAP + since_the_slot)
        looked_up.clear()
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="bot.recaps.weekly"):
            async with running_service(db_path, [platform], clock, catalog):
                pass
    # the restarts after last week's recaps were checked (recorded, warned about, or with
    # nothing to say) look none of them up again, channel by channel, nor warn again
    assert caplog.records == []
    assert sum(looked_up) == 0, f"recap keys looked up again: {looked_up}"
