"""The next slot, and the previous one, without a calendar walk where the zone keeps one UTC
offset (start-up asks for 10,000 channels' slots): each is the walk's slot in every zone of
the tz database, around DST changes and in the zones whose offset changed twice within
days, and the offset is read often enough that the tz database installed here hides no
change between two readings."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

import pytest

from bot.scheduling import slot_arithmetic
from bot.scheduling.schedule_spec import parse_schedule
from bot.scheduling.slot_arithmetic import PROBE_STEP, next_slot, previous_slot, slots_until
from tests.core.scheduling.test_slot_walk import ODD_ZONES, SCHEDULES
from tests.slot_walk_reference import reference_slots_after

# zones whose offset changed and changed back within 4 to 12 days
TWICE_WITHIN_DAYS = (
    ("Africa/Freetown", datetime(1939, 8, 28, tzinfo=UTC)),
    ("Africa/Tunis", datetime(1943, 4, 13, tzinfo=UTC)),
    ("America/Recife", datetime(2000, 10, 4, tzinfo=UTC)),
    ("America/Boa_Vista", datetime(2000, 10, 4, tzinfo=UTC)),
    ("Europe/Tirane", datetime(1943, 3, 25, tzinfo=UTC)),
    ("Europe/Vienna", datetime(1945, 3, 29, tzinfo=UTC)),
    ("Asia/Gaza", datetime(2040, 10, 16, tzinfo=UTC)),
)


def fresh_next_slot(text: str, zone: ZoneInfo, after: datetime) -> datetime | None:
    """``next_slot`` with nothing remembered from an earlier question."""
    slot_arithmetic._FOLLOWING.clear()
    slot_arithmetic._ONE_OFFSET_SPANS.clear()
    return next_slot(parse_schedule(text), zone, after)


def walked(text: str, zone: ZoneInfo, after: datetime) -> datetime | None:
    return next(reference_slots_after(parse_schedule(text), zone, after), None)


def fresh_previous_slot(text: str, zone: ZoneInfo, at_or_before: datetime) -> datetime | None:
    """``previous_slot`` with nothing remembered from an earlier question."""
    previous_slot.cache_clear()
    slot_arithmetic._ONE_OFFSET_SPANS.clear()
    return previous_slot(parse_schedule(text), zone, at_or_before)


def walked_back(text: str, zone: ZoneInfo, at_or_before: datetime) -> datetime | None:
    return next(slots_until(parse_schedule(text), zone, at_or_before), None)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_next_slot_is_the_walks_in_every_zone(seed: int) -> None:
    rng = random.Random(seed)
    zones = sorted(z for z in available_timezones() if z != "localtime")
    for _ in range(1_500):
        year = rng.choice((1990, 2000, 2011, 2016, 2024, 2026, 2027, 2030))
        after = datetime(year, 1, 1, tzinfo=UTC) + timedelta(seconds=rng.randrange(366 * 86_400))
        if rng.random() < 0.3:
            after = after.replace(second=0, microsecond=0)
        text, zone = rng.choice(SCHEDULES), ZoneInfo(rng.choice(zones))
        assert fresh_next_slot(text, zone, after) == walked(text, zone, after), (text, zone, after)
        assert fresh_previous_slot(text, zone, after) == walked_back(text, zone, after), (
            text,
            zone,
            after,
        )


def test_the_next_slot_is_the_walks_hour_by_hour_across_changes_of_offset() -> None:
    cases = [(key, start) for key, start in TWICE_WITHIN_DAYS]
    cases += [
        ("Europe/Berlin", datetime(2026, 3, 26, tzinfo=UTC)),
        ("Europe/Berlin", datetime(2026, 10, 22, tzinfo=UTC)),
        ("America/New_York", datetime(2026, 3, 5, tzinfo=UTC)),
        ("Australia/Lord_Howe", datetime(2026, 4, 1, tzinfo=UTC)),
        ("Pacific/Apia", datetime(2011, 12, 26, tzinfo=UTC)),
    ]
    for key, start in cases:
        zone = ZoneInfo(key)
        for hour in range(0, 16 * 24, 1):
            after = start + timedelta(hours=hour, minutes=17 * (hour % 4))
            for text in ("daily 09:00", "daily 02:30", "weekdays 00:30", "sun 03:00"):
                assert fresh_next_slot(text, zone, after) == walked(text, zone, after), (
                    text,
                    key,
                    after,
                )
                assert fresh_previous_slot(text, zone, after) == walked_back(text, zone, after), (
                    text,
                    key,
                    after,
                )


def test_remembered_spans_give_the_walks_slots_as_time_goes_on() -> None:
    slot_arithmetic._FOLLOWING.clear()
    slot_arithmetic._ONE_OFFSET_SPANS.clear()
    rng = random.Random(4)
    for key in (*ODD_ZONES, "Europe/Berlin", "America/Sao_Paulo", "Asia/Gaza"):
        zone = ZoneInfo(key)
        after = datetime(2026, 1, 1, tzinfo=UTC)
        while after < datetime(2027, 1, 1, tzinfo=UTC):
            text = rng.choice(SCHEDULES)
            assert next_slot(parse_schedule(text), zone, after) == walked(text, zone, after)
            after += timedelta(hours=rng.randrange(1, 60))


def test_no_two_changes_of_offset_are_closer_than_a_probe_step() -> None:
    pure = pytest.importorskip("zoneinfo._zoneinfo")
    closest = timedelta.max
    for key in sorted(available_timezones()):
        zone = pure.ZoneInfo.no_cache(key)
        if not hasattr(zone, "_trans_utc") or not hasattr(zone, "_ttinfos"):
            pytest.skip("this Python's zoneinfo keeps its transitions elsewhere")
        offsets = [t.utcoff for t in zone._ttinfos]
        before = zone._tti_before.utcoff if zone._tti_before else offsets[0]
        changes: list[int] = []
        for moment, offset in zip(zone._trans_utc, offsets, strict=True):
            if offset != before:
                changes.append(moment)
                before = offset
        for earlier, later in pairwise(changes):
            closest = min(closest, timedelta(seconds=later - earlier))
    assert closest > PROBE_STEP, f"two changes of offset {closest} apart"


def test_a_daily_next_slot_looks_at_two_local_days_at_most(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.scheduling.schedule_spec import ScheduleSpec

    days = []
    real = ScheduleSpec.runs_on

    def counted(spec: ScheduleSpec, day: object) -> bool:
        days.append(day)
        return real(spec, day)  # type: ignore[arg-type]

    daily = parse_schedule("daily 09:00")
    monkeypatch.setattr(ScheduleSpec, "runs_on", counted)
    slot_arithmetic._FOLLOWING.clear()
    after = datetime(2026, 12, 9, 8, 0, tzinfo=UTC)  # 09:00 in Berlin: the day's slot
    assert next_slot(daily, ZoneInfo("Europe/Berlin"), after) == datetime(
        2026, 12, 10, 8, 0, tzinfo=UTC
    )
    assert len(days) <= 2, f"{len(days)} days looked at: {days}"


class CountingZone(ZoneInfo):
    """A zone that counts the instants converted into it (each probe of its offset is one)."""

    conversions = 0

    def fromutc(self, dt: datetime) -> datetime:
        type(self).conversions += 1
        return super().fromutc(dt)


def test_a_zones_channels_read_its_offset_over_their_days_once_not_once_each() -> None:
    # Start-up asks each channel of a zone (25 of 10,000 in each of 400) for the slot after
    # its last round: a few days apart, latest first as they come. Each read the zone's
    # offset over two weeks again (29 readings) whenever its days began before those
    # already read; the days read before are read again for none of them.
    slot_arithmetic._FOLLOWING.clear()
    slot_arithmetic._ONE_OFFSET_SPANS.clear()
    zone = CountingZone("Europe/Berlin")
    CountingZone.conversions = 0
    now = datetime(2026, 12, 9, 11, 0, tzinfo=UTC)
    texts = [f"daily {hour:02d}:{minute:02d}" for hour in range(7, 12) for minute in (0, 30)]
    for number, text in enumerate(texts * 3):
        last_round = now - timedelta(hours=7 * number + 1)
        slot = next_slot(parse_schedule(text), zone, last_round)
        assert slot == walked(text, ZoneInfo("Europe/Berlin"), last_round)
    asked = len(texts) * 3
    # one conversion of each channel's instant, and the zone's offset over the channels'
    # days (a probe every 12 hours over 9 days back and two weeks ahead)
    assert CountingZone.conversions <= asked + 50, f"{CountingZone.conversions} for {asked}"


def test_a_monthly_turns_slots_need_no_calendar_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    # Seasons turn on the first of the month in each channel's zone: start-up asks for the
    # turn before now and the one after for each of about 400 zones, and each was a walk of
    # up to a month of days (a quarter of the time of planning 10,000 channels).
    walks: list[str] = []

    def counted(name: str, walk: Any) -> Any:
        def walking(*args: Any) -> Any:
            walks.append(name)
            return walk(*args)

        return walking

    monkeypatch.setattr(
        slot_arithmetic, "slots_after", counted("after", slot_arithmetic.slots_after)
    )
    monkeypatch.setattr(
        slot_arithmetic, "slots_until", counted("until", slot_arithmetic.slots_until)
    )
    monthly, now = "0 0 1 * *", datetime(2026, 12, 9, 11, 0, tzinfo=UTC)
    for key in ("Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney"):
        zone = ZoneInfo(key)
        assert fresh_next_slot(monthly, zone, now) == walked(monthly, zone, now)
        assert fresh_previous_slot(monthly, zone, now) == walked_back(monthly, zone, now)
    assert walks == []
