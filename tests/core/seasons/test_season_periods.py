"""Seasons as calendar periods of the channel's zone: their bounds, names and turns, where
daylight saving moves the clock, and the right form for a season typed wrong."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from bot.kernel.errors import BadArgument
from bot.kernel.models import ChannelSettings, SeasonLength
from bot.kernel.refs import ChannelRef
from bot.scheduling.slot_arithmetic import next_slot
from bot.seasons.periods import ended_at_turn, parse_season, previous_season, season_of
from bot.seasons.turns import season_plan


def channel(timezone: str, length: SeasonLength = SeasonLength.MONTHLY) -> ChannelSettings:
    return ChannelSettings(1, ChannelRef("fake", "team", "C1", "#quiz"), timezone, seasons=length)


def test_a_month_and_a_quarter_are_named_and_bounded() -> None:
    november = season_of(date(2026, 11, 17), SeasonLength.MONTHLY)
    assert (november.name, november.first_day, november.last_day) == (
        "2026-11",
        date(2026, 11, 1),
        date(2026, 11, 30),
    )
    q4 = season_of(date(2026, 12, 31), SeasonLength.QUARTERLY)
    assert (q4.name, q4.first_day, q4.next_first_day) == (
        "2026-Q4",
        date(2026, 10, 1),
        date(2027, 1, 1),
    )
    assert (
        previous_season(
            season_of(date(2027, 1, 5), SeasonLength.MONTHLY), SeasonLength.MONTHLY
        ).name
        == "2026-12"
    )


def test_a_season_spanning_a_dst_change_begins_and_ends_at_local_midnight() -> None:
    start, end = season_of(date(2026, 10, 10), SeasonLength.MONTHLY).bounds("Europe/Berlin")
    assert start == datetime(2026, 9, 30, 22, 0, tzinfo=UTC)  # summer time, UTC+2
    assert end == datetime(2026, 10, 31, 23, 0, tzinfo=UTC)  # winter time, UTC+1


def test_where_midnight_is_skipped_the_season_begins_when_the_day_does() -> None:
    # Asunción moved its clocks from 00:00 to 01:00 on 1 October 2023
    start, _ = season_of(date(2023, 10, 2), SeasonLength.MONTHLY).bounds("America/Asuncion")
    assert start == datetime(2023, 10, 1, 4, 0, tzinfo=UTC)  # 01:00 local, UTC-3
    plan = season_plan(channel("America/Asuncion"))
    assert plan is not None
    turn = next_slot(plan.spec, plan.tz, datetime(2023, 9, 30, 12, 0, tzinfo=UTC))
    assert turn == start  # the turn fires once, moved forward by the gap
    assert ended_at_turn(turn, "America/Asuncion", SeasonLength.MONTHLY).name == "2023-09"


def test_quarterly_turns_come_on_the_first_of_each_quarter() -> None:
    plan = season_plan(channel("UTC", SeasonLength.QUARTERLY))
    assert plan is not None
    turns: list[date] = []
    at = datetime(2026, 11, 15, tzinfo=UTC)
    for _ in range(3):
        following = next_slot(plan.spec, plan.tz, at)
        assert following is not None
        turns.append(following.date())
        at = following
    assert turns == [date(2027, 1, 1), date(2027, 4, 1), date(2027, 7, 1)]
    assert (
        ended_at_turn(datetime(2027, 1, 1, tzinfo=UTC), "UTC", SeasonLength.QUARTERLY).name
        == "2026-Q4"
    )


def test_seasons_off_and_a_disabled_channel_have_no_turns() -> None:
    assert season_plan(channel("UTC", SeasonLength.OFF)) is None
    disabled = ChannelSettings(
        1, ChannelRef("fake", "team", "C1", "#quiz"), "UTC", disabled_reason="gone"
    )
    assert season_plan(disabled) is None


@pytest.mark.parametrize(
    ("typed", "length", "form"),
    [
        ("2026-13", SeasonLength.MONTHLY, "written YYYY-MM, e.g. 2026-11"),
        ("november", SeasonLength.MONTHLY, "written YYYY-MM, e.g. 2026-11"),
        ("2026-11", SeasonLength.QUARTERLY, "written YYYY-Qn, e.g. 2026-Q4"),
        ("2026-Q5", SeasonLength.QUARTERLY, "written YYYY-Qn, e.g. 2026-Q4"),
    ],
)
def test_a_season_typed_wrong_is_told_the_right_form(
    typed: str, length: SeasonLength, form: str
) -> None:
    with pytest.raises(BadArgument, match=form):
        parse_season(typed, length)
    assert parse_season("2026-q4", SeasonLength.QUARTERLY).name == "2026-Q4"
