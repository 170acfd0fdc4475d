"""The calendar walk behind every next slot (start-up does one for each of 10,000
channels): it examines no more local days than it needs (a daily slot is found in five),
and it yields the slots the first, slower walk yields, in every zone of the tz database,
across DST changes, date-line jumps and 29 February."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from itertools import islice
from zoneinfo import ZoneInfo, available_timezones

import pytest

from bot.scheduling.schedule_spec import ScheduleSpec, parse_schedule
from bot.scheduling.slot_arithmetic import slots_after
from tests.slot_walk_reference import reference_slots_after

SCHEDULES = (
    "daily 09:00",
    "weekdays 00:30",
    "daily 02:30",
    "daily 23:59",
    "mon,wed,fri 01:15",
    "sun 03:00",
    "daily 00:00",
    "15 2 * * *",
    "0 0 1 * *",
    "0 12 31 * *",
    "*/30 1-3 * * *",
    "*/15 * * * 1",
    "0 0 29 2 *",
)
# zones that jumped a whole day, changed by 30 minutes, or kept local mean time long
ODD_ZONES = (
    "Pacific/Apia",
    "Pacific/Kiritimati",
    "Pacific/Kwajalein",
    "Pacific/Fakaofo",
    "America/Metlakatla",
    "America/Sitka",
    "Asia/Manila",
    "Antarctica/Troll",
    "Europe/Dublin",
    "Australia/Lord_Howe",
)


def agree(spec: ScheduleSpec, zone: ZoneInfo, after: datetime, count: int = 5) -> None:
    walked = list(islice(slots_after(spec, zone, after), count))
    assert walked == list(islice(reference_slots_after(spec, zone, after), count)), (
        spec.text,
        zone.key,
        after,
    )


def test_a_daily_slot_is_found_in_five_local_days(monkeypatch: pytest.MonkeyPatch) -> None:
    daily = parse_schedule("daily 09:00")
    days: list[date] = []
    real = ScheduleSpec.runs_on

    def counted(spec: ScheduleSpec, day: date) -> bool:
        days.append(day)
        return real(spec, day)

    monkeypatch.setattr(ScheduleSpec, "runs_on", counted)
    after = datetime(2026, 12, 9, 8, 0, tzinfo=UTC)  # 09:00 in Berlin: the day's slot
    following = next(slots_after(daily, ZoneInfo("Europe/Berlin"), after))
    assert following == datetime(2026, 12, 10, 8, 0, tzinfo=UTC)
    assert len(days) <= 5, f"{len(days)} days walked: {days}"


@pytest.mark.parametrize("seed", [1, 2])
def test_the_walk_yields_the_first_walks_slots_in_every_zone(seed: int) -> None:
    rng = random.Random(seed)
    zones = sorted(z for z in available_timezones() if z != "localtime")
    specs = [parse_schedule(text) for text in SCHEDULES]
    for _ in range(1_500):
        year = rng.choice((1990, 2000, 2011, 2016, 2024, 2026, 2030))
        after = datetime(year, 1, 1, tzinfo=UTC) + timedelta(seconds=rng.randrange(366 * 86_400))
        if rng.random() < 0.3:  # on the minute, as slots and rounds are
            after = after.replace(second=0, microsecond=0)
        agree(rng.choice(specs), ZoneInfo(rng.choice(zones)), after)


def test_the_walk_yields_the_first_walks_slots_across_date_line_jumps() -> None:
    rng = random.Random(3)
    specs = [parse_schedule(text) for text in SCHEDULES]
    for key in ODD_ZONES:
        start = datetime(1840 if key == "Asia/Manila" else 1900, 1, 1, tzinfo=UTC)
        for _ in range(60):
            after = start + timedelta(hours=rng.randrange(24 * 365 * 130))
            agree(rng.choice(specs), ZoneInfo(key), after)
    apia = ZoneInfo("Pacific/Apia")  # 30 December 2011 never happened there
    for step in range(0, 6 * 72):
        agree(
            specs[step % len(specs)],
            apia,
            datetime(2011, 12, 27, tzinfo=UTC) + timedelta(minutes=20 * step),
        )
