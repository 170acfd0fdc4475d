"""The dashboard's store on both backends: sharing is per channel and member, set and
cleared once each, and erased with the member; the activity per day comes grouped."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.kernel.refs import MemberRef
from tests.storage.backends import BACKENDS, open_store
from tests.storage.test_away_and_skipped_days import a_channel

AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def test_sharing_is_per_channel_and_changes_once(backend: str, tmp_path: Path) -> None:
    async with open_store(backend, tmp_path) as store:
        c1, c2 = await a_channel(store, "C1"), await a_channel(store, "C2")
        ann = await store.members.member_id(MemberRef("fake", "team", "ann"))
        shares = store.dashboard

        assert await shares.set_sharing(c1, ann, True, AT)
        assert not await shares.set_sharing(c1, ann, True, AT)  # already so
        assert await shares.sharing(c1) == {ann} and await shares.sharing(c2) == frozenset()
        assert await shares.set_sharing(c1, ann, False, AT)
        assert not await shares.set_sharing(c1, ann, False, AT)
        assert await shares.sharing(c1) == frozenset()


async def test_the_erasure_takes_the_members_sharing(backend: str, tmp_path: Path) -> None:
    async with open_store(backend, tmp_path) as store:
        c1 = await a_channel(store, "C1")
        ann = await store.members.member_id(MemberRef("fake", "team", "ann"))
        await store.dashboard.set_sharing(c1, ann, True, AT)

        erased = await store.member_data.erase_member(ann, AT, [])

        assert erased is not None and erased.rows.get("dashboard_shares") == 1
        assert await store.dashboard.sharing(c1) == frozenset()


async def test_nothing_yet_is_no_day_at_all(backend: str, tmp_path: Path) -> None:
    async with open_store(backend, tmp_path) as store:
        c1 = await a_channel(store, "C1")
        assert await store.dashboard.daily_counts(c1, AT - timedelta(days=90)) == []
        assert await store.dashboard.question_grades(c1) == []
        assert await store.dashboard.channel_card_figures(c1) == {}
