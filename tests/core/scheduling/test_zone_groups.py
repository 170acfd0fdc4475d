"""Channels grouped by zone and grace window for the weekly plans: the disabled ones and
those of platforms not running here left out, each channel with a setting of its own
alone, and the groups worked out once for start-up's channels."""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.kernel.models import ChannelSettings, SeasonLength
from bot.kernel.refs import ChannelRef
from bot.scheduling.slot_plans import SlotPlan, plan_for
from bot.scheduling.zone_groups import (
    StartingChannels,
    alike,
    alike_by,
    keep_own_settings,
    planned,
    zone_groups,
)


def channel(number: int, zone: str = "Europe/Berlin", **changes: Any) -> ChannelSettings:
    ref = ChannelRef("slack", "T1", f"C{number}")
    return dataclasses.replace(ChannelSettings(number, ref, zone, "daily 09:00"), **changes)


def test_channels_are_grouped_by_zone_and_grace_window_in_order() -> None:
    channels = [
        channel(1),
        channel(2, "Asia/Tokyo"),
        channel(3),
        channel(4, grace_hours=2.0),
        channel(5, disabled_reason="removed"),
        channel(6, ref=ChannelRef("discord", "G1", "C6")),
    ]
    groups = zone_groups(channels, {"slack"})
    assert [(g.timezone, g.grace_hours, g.ids) for g in groups] == [
        ("Europe/Berlin", 6.0, [1, 3]),
        ("Asia/Tokyo", 6.0, [2]),
        ("Europe/Berlin", 2.0, [4]),
    ]
    assert [g.ids for g in zone_groups(channels)] == [[1, 3, 6], [2], [4]]  # any platform


def test_a_channel_with_a_setting_of_its_own_is_planned_alone() -> None:
    groups = zone_groups([channel(n) for n in range(1, 6)], {"slack"})
    same = [(a.setting, a.ids) for a in alike(groups, {2: "off", 4: "mon 10:00"}, "default")]
    assert same == [("default", [1, 3, 5]), ("off", [2]), ("mon 10:00", [4])]
    assert [(a.setting, a.ids) for a in alike(groups, {}, "default")] == [
        ("default", [1, 2, 3, 4, 5])
    ]


def test_channels_are_split_by_a_setting_kept_on_them() -> None:
    channels = [channel(1), channel(2, seasons=SeasonLength.QUARTERLY), channel(3)]
    same = alike_by(zone_groups(channels), lambda c: c.seasons)
    assert [(a.setting, a.ids) for a in same] == [
        (SeasonLength.MONTHLY, [1, 3]),
        (SeasonLength.QUARTERLY, [2]),
    ]


def test_start_ups_channels_are_grouped_once_for_every_feature() -> None:
    starting = StartingChannels([channel(1), channel(2, "Asia/Tokyo")])
    first = zone_groups(starting, {"slack"})
    assert zone_groups(starting, ["slack"]) is first  # the recaps', pairings', seasons'
    assert zone_groups(starting, {"discord"}) == []
    assert list(starting) == [channel(1), channel(2, "Asia/Tokyo")]


def test_settings_of_their_own_are_kept_as_stored_for_the_channels_read() -> None:
    kept = {1: "off", 2: "mon 10:00", 9: "tue 09:00"}  # 9: a channel not read now
    keep_own_settings(kept, {2: "wed 10:00", 3: "off"}, [channel(n) for n in (1, 2, 3, 4)])
    # 1 is back on the default, 2 changed, 3 has one of its own now, 9 is left as it was
    assert kept == {2: "wed 10:00", 3: "off", 9: "tue 09:00"}


def test_each_group_is_planned_for_its_first_channel_and_one_with_no_plan_is_left_out() -> None:
    groups = zone_groups([channel(1), channel(2, "Asia/Tokyo"), channel(3)])
    asked: list[tuple[int, str]] = []

    def plan_with(first: ChannelSettings, setting: str) -> SlotPlan | None:
        asked.append((first.id, setting))
        return None if first.timezone == "Asia/Tokyo" else plan_for(first)

    got = [(plan.tz.key, same.ids) for plan, same in planned(alike(groups, {}, "on"), plan_with)]
    assert got == [("Europe/Berlin", [1, 3])]
    assert asked == [(1, "on"), (2, "on")]
