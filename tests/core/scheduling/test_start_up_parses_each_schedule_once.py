"""Start-up plans each channel's questions twice, once for the catch-up and once for the
scheduler; both must get the same plan, not parse the schedule again. At more channels with
schedules of their own than the plans kept (4,096 before issue #35's last pass) the second
pass found none of the first's, and 10,000 channels parsed 20,000 schedules."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

import bot.scheduling.slot_plans
from bot.scheduling.schedule_spec import parse_schedule
from questions.catalog import Catalog
from storage.sqlite.store import SqliteStore
from tests.core.scheduling.test_start_up_scales_with_schedules import ZONES, started
from tests.fakes import FakePlatform

CHANNELS = 5_000


async def add_plain_channels(db_path: Path, platform: str, count: int) -> list[str]:
    """``count`` channels on schedules and zones of their own, written in one transaction."""
    async with SqliteStore.open(db_path):
        pass  # migrated
    rows, schedules = [], []
    for number in range(count):
        schedule = f"daily {7 + (number // 60) % 12:02d}:{number % 60:02d}"
        zone = ZONES[(number // 720) % len(ZONES)]
        schedules.append(f"{schedule} {zone}")
        rows.append((platform, f"C{number}", zone, schedule))
    with closing(sqlite3.connect(db_path, isolation_level=None)) as conn:
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO channels (platform, workspace, channel, timezone, schedule, reveal_emoji,"
            " reveal_min_reactors, followup_policy, grace_hours)"
            " VALUES (?, 'team', ?, ?, ?, '💡', 1, 'after_first_answer', 6)",
            rows,
        )
        conn.execute("COMMIT")
    return schedules


async def test_start_up_parses_each_channels_schedule_once(
    db_path: Path, platform: FakePlatform, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    schedules = await add_plain_channels(db_path, platform.name, CHANNELS)
    assert len(set(schedules)) > 4_096  # more plans of their own than were kept
    parsed: list[str] = []

    def counted(text: str) -> Any:
        parsed.append(text)
        return parse_schedule(text)

    bot.scheduling.slot_plans.slot_plan.cache_clear()
    monkeypatch.setattr(bot.scheduling.slot_plans, "parse_schedule", counted)
    async with started(db_path, platform, catalog):
        pass
    # each channel's once, and the weekly recap's and pairing's once in each zone
    assert len(parsed) <= CHANNELS + 2 * len(ZONES), f"{len(parsed)} parsed for {CHANNELS}"
