"""The skipped days and away stores on both backends: dates kept as local dates, skips
added and removed once each, away periods kept as history, extended, ended yesterday by
``clear`` (or removed when they began today), and found by workspace and member."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.away.periods import AwayPeriod, is_away
from bot.kernel.models import ChannelSettings, FollowUpPolicy
from bot.kernel.refs import ChannelRef, MemberRef
from bot.store import Store
from tests.storage.backends import BACKENDS, open_store

AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
D = date


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def a_channel(store: Store, name: str = "C1") -> int:
    created = await store.channels.create_channel(
        ChannelSettings(
            id=0,
            ref=ChannelRef("fake", "team", name, name),
            timezone="Europe/Berlin",
            schedule="weekdays 09:00",
            reveal_emoji="💡",
            reveal_min_reactors=1,
            followup_policy=FollowUpPolicy.AFTER_FIRST_ANSWER,
            grace_hours=6,
        )
    )
    return created.id


async def test_skipped_days_are_added_listed_and_removed_once(backend: str, tmp_path: Path) -> None:
    async with open_store(backend, tmp_path) as store:
        c1, c2 = await a_channel(store, "C1"), await a_channel(store, "C2")
        days = store.skipped_days
        assert await days.skip_days(c1, [D(2026, 12, 24), D(2026, 12, 25)], AT) == 2
        assert await days.skip_days(c1, [D(2026, 12, 25), D(2026, 12, 31)], AT) == 1
        assert await days.skipped_days(c1, D(2026, 12, 1)) == [
            D(2026, 12, 24),
            D(2026, 12, 25),
            D(2026, 12, 31),
        ]
        assert await days.skipped_days(c1, D(2026, 12, 25), D(2026, 12, 30)) == [D(2026, 12, 25)]
        assert await days.skipped_days(c2, D(2026, 1, 1)) == []  # per channel
        assert await days.is_skipped(c1, D(2026, 12, 24))
        assert not await days.is_skipped(c2, D(2026, 12, 24))
        assert await days.unskip_days(c1, [D(2026, 12, 24), D(2026, 12, 26)]) == 1
        assert await days.unskip_days(c1, []) == 0
        assert await days.skipped_days(c1, D(2026, 1, 1)) == [D(2026, 12, 25), D(2026, 12, 31)]


async def test_away_periods_are_kept_extended_and_ended(backend: str, tmp_path: Path) -> None:
    async with open_store(backend, tmp_path) as store:
        away = store.away
        assert await away.until("team", "U1") is None
        await away.set("team", "U1", D(2026, 11, 2), D(2026, 11, 6), AT)
        await away.set("team", "U1", D(2026, 11, 30), D(2026, 12, 4), AT)
        assert await away.until("team", "U1") == D(2026, 12, 4)
        # set again while away: the running period gets the new end, no new period
        await away.set("team", "U1", D(2026, 12, 2), D(2026, 12, 10), AT)
        assert await away.until("team", "U1") == D(2026, 12, 10)
        assert await away.periods("team", ["U1", "U2"]) == {
            "U1": [
                AwayPeriod(D(2026, 11, 2), D(2026, 11, 6)),
                AwayPeriod(D(2026, 11, 30), D(2026, 12, 10)),
            ]
        }
        assert await away.until("other", "U1") is None  # per workspace
        # back on the 3rd: away through the 2nd, the history kept
        assert await away.clear("team", "U1", D(2026, 12, 3), AT)
        assert await away.until("team", "U1") == D(2026, 12, 2)
        assert not await away.clear("team", "U1", D(2026, 12, 3), AT)  # not away any more
        # a period that began today and is ended today leaves nothing behind
        await away.set("team", "U2", D(2026, 12, 3), D(2026, 12, 5), AT)
        assert await away.clear("team", "U2", D(2026, 12, 3), AT)
        assert await away.until("team", "U2") is None
        assert await away.periods("team", []) == {}


async def test_away_by_store_id_and_the_workspaces_a_member_is_known_in(
    backend: str, tmp_path: Path
) -> None:
    async with open_store(backend, tmp_path) as store:
        in_guild = await store.members.member_id(MemberRef("discord", "G1", "42", "Ann"))
        in_dm = await store.members.member_id(MemberRef("discord", "0", "42", "Ann"))
        await store.members.member_id(MemberRef("slack", "T1", "42", "Other"))
        assert await store.away.member_workspaces("discord", "42") == ["0", "G1"]
        await store.away.set("G1", "42", D(2026, 12, 1), D(2026, 12, 9), AT)
        assert await store.away.until_for_member(in_guild) == D(2026, 12, 9)
        assert await store.away.until_for_member(in_dm) is None  # another workspace


async def test_who_of_many_members_is_away_on_a_day_in_one_read(
    backend: str, tmp_path: Path
) -> None:
    async with open_store(backend, tmp_path) as store:
        ids = [
            await store.members.member_id(MemberRef("slack", "T1", f"U{n}", f"m{n}"))
            for n in range(1200)  # more than one read binds
        ]
        await store.away.set("T1", "U3", D(2026, 12, 1), D(2026, 12, 9), AT)
        await store.away.set("T1", "U1100", D(2026, 12, 1), D(2026, 12, 2), AT)
        await store.away.set("T2", "U5", D(2026, 12, 1), D(2026, 12, 9), AT)  # elsewhere
        assert await store.away.away_among(ids, D(2026, 12, 2)) == {ids[3], ids[1100]}
        assert await store.away.away_among(ids, D(2026, 12, 3)) == {ids[3]}
        assert await store.away.away_among(ids, D(2026, 12, 10)) == frozenset()
        assert await store.away.away_among([], D(2026, 12, 2)) == frozenset()
        for n in (3, 1100, 7):  # the one read agrees with the member's own
            until = await store.away.until_for_member(ids[n])
            assert is_away(until, D(2026, 12, 2)) == (ids[n] in {ids[3], ids[1100]})
