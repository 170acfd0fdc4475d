"""A workspace's installation is removed only when it is older than the removal given:
the check and the delete are one statement, on SQLite and on PostgreSQL alike."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.kernel.installations import InstallationRecord
from storage.sqlite.store import SqliteStore
from tests.storage.backends import BACKENDS, open_store

INSTALLED = datetime(2026, 3, 2, 9, 0, 0, 250000, tzinfo=UTC)


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened  # type: ignore[misc]  # both backends, typed as SQLite's for brevity


def installation(at: datetime) -> InstallationRecord:
    return InstallationRecord("T0ONE", "One", "U0BOT", "sealed", at)


async def test_a_removal_before_the_install_keeps_it(store: SqliteStore) -> None:
    await store.installations.save_installation(installation(INSTALLED))
    removed = await store.installations.delete_installation("T0ONE", installed_before=INSTALLED)
    assert not removed
    kept = await store.installations.find_installation("T0ONE")
    assert kept is not None and kept.installed_at == INSTALLED


async def test_a_removal_after_the_install_removes_it(store: SqliteStore) -> None:
    await store.installations.save_installation(installation(INSTALLED))
    later = INSTALLED + timedelta(microseconds=1)
    assert await store.installations.delete_installation("T0ONE", installed_before=later)
    assert await store.installations.find_installation("T0ONE") is None
    assert not await store.installations.delete_installation("T0ONE", installed_before=later)


async def test_a_removal_at_no_given_time_removes_any_install(store: SqliteStore) -> None:
    await store.installations.save_installation(installation(INSTALLED))
    assert await store.installations.delete_installation("T0ONE")
    assert await store.installations.find_installation("T0ONE") is None
