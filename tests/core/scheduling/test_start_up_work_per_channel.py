"""What start-up does and keeps for each channel, at many channels on schedules and
timezones of their own (bench/startup.py measures the same at 10,000): the recaps',
pairings' and seasons' plans are worked out for each zone, not for each channel (the
catch-ups and the schedulers alike), the memory a started bot keeps per
channel stays small (a channel on the default recap and pairing keeps no setting of its
own, and the settings read from the store share their repeated strings), and reading the
channels never holds all their raw rows at once (the peak resident size is what counts)."""

from __future__ import annotations

import gc
import sqlite3
import tracemalloc
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

import bot.pairing.weekly
import bot.recaps.weekly
import bot.seasons.turns
from bot.pairing.schedule import pairing_plan
from bot.recaps._schedule import recap_plan
from bot.seasons.turns import season_plan
from bot.service import QuizService
from questions.catalog import Catalog
from storage.sqlite.store import SqliteStore
from tests.core.scheduling.test_start_up_scales_with_schedules import (
    add_channels,
    own_schedule,
    started,
)
from tests.fakes import FakePlatform

# Bytes of Python objects a started bot keeps per channel (1,814 before issue #35, then
# 1,366 while each scheduler kept a dict for each group, though most hold one channel, then
# 1,086 while each channel had a plan of its own in each scheduler; 762 now)
KEPT_PER_CHANNEL = 900


async def test_the_weekly_plans_are_worked_out_for_each_zone_not_each_channel(
    db_path: Path,
    platform: FakePlatform,
    catalog: Catalog,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Nearly every channel keeps the default recap, pairing and seasons: its plans are its
    # zone's. Start-up asked for each channel's three plans (30,000 at 10,000 channels),
    # each joined to its group one by one.
    await add_channels(db_path, 120, catalog)
    zones = len({own_schedule(number)[1] for number in range(120)})
    asked: dict[str, int] = {"recap": 0, "pairing": 0, "season": 0}

    def counted(kind: str, plan: Any) -> Any:
        def count(*args: Any) -> Any:
            asked[kind] += 1
            return plan(*args)

        return count

    monkeypatch.setattr(bot.recaps.weekly, "recap_plan", counted("recap", recap_plan))
    monkeypatch.setattr(bot.pairing.weekly, "pairing_plan", counted("pairing", pairing_plan))
    monkeypatch.setattr(bot.seasons.turns, "season_plan", counted("season", season_plan))
    async with started(db_path, platform, catalog) as service:
        for job in ("recap", "pair", "season"):
            assert len(service.schedulers[job]._plans) == 120, job  # every channel planned
    for kind, count in asked.items():
        # the catch-up's and the scheduler's, once for each zone
        assert count <= 2 * zones, f"{kind} plans: {count} for 120 channels in {zones} zones"


def plans_held(service: QuizService) -> int:
    """The distinct plan objects the service's schedulers hold (questions, recaps, pairings,
    seasons)."""
    schedulers = [service.scheduler, *service.schedulers.values()]
    return len({id(plan) for s in schedulers if s is not None for plan in s._plans.values()})


async def test_the_schedulers_plans_grow_with_the_schedules_not_the_channels(
    tmp_path: Path, platform: FakePlatform, catalog: Catalog
) -> None:
    held = []
    for channels in (12, 120):  # the same 12 schedules, each in a zone of its own
        db_path = tmp_path / f"{channels}.db"
        await add_channels(db_path, channels, catalog, schedules=12)
        async with started(db_path, platform, catalog) as service:
            held.append(plans_held(service))
    # one plan per (schedule, zone, grace window) and kind, shared by its channels
    assert held == [48, 48], f"plans held at 12 and 120 channels: {held}"


async def kept_after_start(db_path: Path, platform: FakePlatform, catalog: Catalog) -> int:
    """Bytes of Python objects allocated by a start and still held while the bot runs."""
    gc.collect()
    tracemalloc.start()
    try:
        async with started(db_path, platform, catalog):
            gc.collect()
            kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return kept


async def test_a_started_bot_keeps_little_per_channel(
    tmp_path: Path, platform: FakePlatform, catalog: Catalog
) -> None:
    kept = []
    for channels in (60, 660):
        db_path = tmp_path / f"{channels}.db"
        await add_channels(db_path, channels, catalog)
        await kept_after_start(db_path, platform, catalog)  # caches every start fills
        kept.append(await kept_after_start(db_path, platform, catalog))
    per_channel = (kept[1] - kept[0]) / 600
    assert per_channel <= KEPT_PER_CHANNEL, f"{per_channel:.0f} bytes kept per channel"


async def raw_channels(db_path: Path, count: int) -> None:
    """``count`` channels written straight to the database (thousands, quickly)."""
    async with SqliteStore.open(db_path):
        pass
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.executemany(
            "INSERT INTO channels (platform, workspace, channel, name, timezone, schedule,"
            " reveal_emoji, reveal_min_reactors, followup_policy, grace_hours)"
            " VALUES ('fake', 'team', ?, ?, 'Europe/Berlin', 'weekdays 09:30', '💡', 1,"
            " 'after_first_answer', 6)",
            ((f"C{n}", f"quiz-{n}") for n in range(count)),
        )


async def transient_reading_channels(db_path: Path) -> int:
    """Bytes held while the channels are read beyond what the read channels keep."""
    async with SqliteStore.open(db_path) as store:
        gc.collect()
        tracemalloc.start()
        try:
            channels = await store.channels.list_channels()
            peak = tracemalloc.get_traced_memory()[1]
            # aiosqlite's thread holds its last result until its next call
            await store.meta.get_meta("nothing")
            gc.collect()
            kept = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        assert [c.ref.channel_id for c in channels[:2]] == ["C0", "C1"]
    return peak - kept


async def test_reading_the_channels_holds_a_bounded_number_of_rows_at_once(
    tmp_path: Path,
) -> None:
    transient = []
    for channels in (1_500, 4_500):
        db_path = tmp_path / f"{channels}.db"
        await raw_channels(db_path, channels)
        transient.append(await transient_reading_channels(db_path))
    # three times the channels: about the same rows held at once, not three times as many
    assert transient[1] < 1.5 * transient[0], f"bytes held beyond the channels: {transient}"
