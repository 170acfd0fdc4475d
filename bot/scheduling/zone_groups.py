"""Channels grouped by zone and grace window: what the weekly plans (recaps, pairings,
seasons) are made of besides their schedule, which nearly every channel leaves at the
default. Start-up works out each group's plan and catch-up once, not each of 10,000
channels' (about 400 zones), and the groups themselves once for every feature."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from bot.kernel.models import ChannelSettings
from bot.scheduling.slot_plans import SlotPlan

Setting = TypeVar("Setting")


@dataclass(frozen=True, slots=True)
class ZoneGroup:
    """Channels of the platforms running here, not disabled, in one zone with one grace
    window; ``ids`` are theirs, in the same order."""

    timezone: str
    grace_hours: float
    channels: list[ChannelSettings]
    ids: list[int]


class StartingChannels(list[ChannelSettings]):
    """Every stored channel as start-up read them, with their zone groups worked out once
    for all the features that ask (:func:`zone_groups`)."""

    __slots__ = ("_groups",)

    def __init__(self, channels: Iterable[ChannelSettings] = ()) -> None:
        super().__init__(channels)
        self._groups: dict[frozenset[str] | None, list[ZoneGroup]] = {}

    def zone_groups(self, platforms: Collection[str] | None) -> list[ZoneGroup]:
        key = None if platforms is None else frozenset(platforms)
        groups = self._groups.get(key)
        if groups is None:
            groups = self._groups[key] = group_by_zone(self, key)
        return groups


def zone_groups(
    channels: Sequence[ChannelSettings], platforms: Collection[str] | None = None
) -> list[ZoneGroup]:
    """The zone groups of ``channels`` (those of ``platforms``, None: of any platform; not
    disabled); worked out once for start-up's channels."""
    if isinstance(channels, StartingChannels):
        return channels.zone_groups(platforms)
    return group_by_zone(channels, platforms)


def group_by_zone(
    channels: Iterable[ChannelSettings], platforms: Collection[str] | None
) -> list[ZoneGroup]:
    """The channels of ``platforms`` (None: any), not disabled, by zone and grace window."""
    groups: dict[tuple[str, float], list[ChannelSettings]] = {}
    for channel in channels:
        if channel.disabled_reason is None and (
            platforms is None or channel.ref.platform in platforms
        ):
            groups.setdefault((channel.timezone, channel.grace_hours), []).append(channel)
    return [
        ZoneGroup(timezone, grace_hours, members, [channel.id for channel in members])
        for (timezone, grace_hours), members in groups.items()
    ]


@dataclass(frozen=True, slots=True)
class Alike(Generic[Setting]):
    """Channels of one zone group with the same setting of a feature's (its recap, its
    pairing): one plan, and one catch-up decision, for them all."""

    setting: Setting
    channels: list[ChannelSettings]
    ids: list[int]


def alike(
    groups: Iterable[ZoneGroup], own: Mapping[int, Setting], default: Setting
) -> Iterator[Alike[Setting]]:
    """Each zone group's channels on the ``default`` setting together, and each channel
    with a setting of its own (``own``, by channel id) alone."""
    for group in groups:
        mine = [channel for channel in group.channels if channel.id in own] if own else []
        if not mine:
            yield Alike(default, group.channels, group.ids)
            continue
        taken = {channel.id for channel in mine}
        rest = [channel for channel in group.channels if channel.id not in taken]
        if rest:
            yield Alike(default, rest, [channel.id for channel in rest])
        for channel in mine:
            yield Alike(own[channel.id], [channel], [channel.id])


def alike_by(
    groups: Iterable[ZoneGroup], setting_of: Callable[[ChannelSettings], Setting]
) -> Iterator[Alike[Setting]]:
    """Each zone group's channels by a setting kept on the channel itself (the length of
    its seasons), in the order the settings first appear."""
    for group in groups:
        settings = dict.fromkeys(map(setting_of, group.channels))
        if len(settings) == 1:
            yield Alike(next(iter(settings)), group.channels, group.ids)
            continue
        for setting in settings:
            members = [channel for channel in group.channels if setting_of(channel) == setting]
            yield Alike(setting, members, [channel.id for channel in members])


def planned(
    alikes: Iterable[Alike[Setting]],
    plan_with: Callable[[ChannelSettings, Setting], SlotPlan | None],
) -> Iterator[tuple[SlotPlan, Alike[Setting]]]:
    """Each group of alike channels with its plan, made for its first channel (they share
    all a plan is made of); a group with no plan (disabled, an invalid schedule) left out."""
    for same in alikes:
        plan = plan_with(same.channels[0], same.setting)
        if plan is not None:
            yield plan, same


def keep_own_settings(
    kept: dict[int, Setting], stored: Mapping[int, Setting], channels: Iterable[ChannelSettings]
) -> None:
    """Make ``kept`` hold the settings of their own of ``channels`` as ``stored`` has them (a
    channel on the default has none kept); other channels' are left as they are. Only the
    few settings of their own are looked at, not each of 10,000 channels."""
    ids = {channel.id for channel in channels}
    for channel_id in [c for c in kept if c in ids and c not in stored]:
        del kept[channel_id]
    kept.update((c, setting) for c, setting in stored.items() if c in ids)
