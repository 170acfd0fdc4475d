"""Schedule parsing, timezones, DST-correct slot arithmetic and the missed-slot decision."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import islice
from zoneinfo import ZoneInfo

import pytest
from apscheduler.triggers.cron import CronTrigger

from bot.scheduling.schedule_spec import (
    USAGE,
    ScheduleError,
    ScheduleSpec,
    parse_schedule,
    parse_timezone,
)
from bot.scheduling.slot_arithmetic import (
    SKIPPED_COUNT_LIMIT,
    MissedSlot,
    missed_slot,
    next_slot,
    previous_slot,
    slots_after,
    slots_until,
)

BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")
MON, TUE, WED, THU, FRI, SAT, SUN = range(7)


def utc(year: int, month: int, day: int, hour: int, minute: int) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


# ---------------------------------------------------------------- accepted forms


@pytest.mark.parametrize(
    ("text", "normalized", "hour", "minute", "weekdays", "day_of_week"),
    [
        ("weekdays 09:30", "weekdays 09:30", 9, 30, {MON, TUE, WED, THU, FRI}, "mon-fri"),
        ("WEEKDAYS 9:30", "weekdays 09:30", 9, 30, {MON, TUE, WED, THU, FRI}, "mon-fri"),
        ("weekday 07:00", "weekdays 07:00", 7, 0, {MON, TUE, WED, THU, FRI}, "mon-fri"),
        ("weekends 11:15", "weekends 11:15", 11, 15, {SAT, SUN}, "sat-sun"),
        ("daily 10:00", "daily 10:00", 10, 0, set(range(7)), "*"),
        ("Everyday 00:00", "daily 00:00", 0, 0, set(range(7)), "*"),
        ("every day 23:59", "daily 23:59", 23, 59, set(range(7)), "*"),
        ("mon,wed,fri 09:00", "mon,wed,fri 09:00", 9, 0, {MON, WED, FRI}, "mon,wed,fri"),
        ("Fri,Mon,wed 09:00", "mon,wed,fri 09:00", 9, 0, {MON, WED, FRI}, "mon,wed,fri"),
        ("mon, wed, fri 9:05", "mon,wed,fri 09:05", 9, 5, {MON, WED, FRI}, "mon,wed,fri"),
        ("mon-fri 08:45", "weekdays 08:45", 8, 45, {MON, TUE, WED, THU, FRI}, "mon-fri"),
        ("tue-thu,sun 12:00", "tue,wed,thu,sun 12:00", 12, 0, {TUE, WED, THU, SUN}, "tue-thu,sun"),
        ("monday,friday 06:30", "mon,fri 06:30", 6, 30, {MON, FRI}, "mon,fri"),
        ("  daily   10:00  ", "daily 10:00", 10, 0, set(range(7)), "*"),
    ],
)
def test_day_and_time_forms(
    text: str, normalized: str, hour: int, minute: int, weekdays: set[int], day_of_week: str
) -> None:
    spec = parse_schedule(text)
    assert spec.text == normalized
    assert spec.hours == {hour} and spec.minutes == {minute}
    assert spec.weekdays == weekdays
    assert spec.cron_fields() == {
        "minute": str(minute),
        "hour": str(hour),
        "day": "*",
        "month": "*",
        "day_of_week": day_of_week,
    }
    CronTrigger(**spec.cron_fields(), timezone=UTC)  # APScheduler accepts the fields


@pytest.mark.parametrize(
    ("text", "fields", "weekdays"),
    [
        ("0 9 * * 1-5", ("0", "9", "*", "*", "mon-fri"), {MON, TUE, WED, THU, FRI}),
        ("30 9 * * 0", ("30", "9", "*", "*", "sun"), {SUN}),
        ("30 9 * * 7", ("30", "9", "*", "*", "sun"), {SUN}),
        ("0 9 * * 0,6", ("0", "9", "*", "*", "sat-sun"), {SAT, SUN}),
        ("0 9 * * 5-7", ("0", "9", "*", "*", "fri-sun"), {FRI, SAT, SUN}),
        ("0 9 * * MON-FRI", ("0", "9", "*", "*", "mon-fri"), {MON, TUE, WED, THU, FRI}),
        ("0 9 * * sat-sun", ("0", "9", "*", "*", "sat-sun"), {SAT, SUN}),
        ("0 9 * * 1,3,5", ("0", "9", "*", "*", "mon,wed,fri"), {MON, WED, FRI}),
        ("*/15 8-10 * * *", ("0,15,30,45", "8-10", "*", "*", "*"), set(range(7))),
        ("0 9,17 1,15 * *", ("0", "9,17", "1,15", "*", "*"), set(range(7))),
        ("0 12 1 jan,jul *", ("0", "12", "1", "1,7", "*"), set(range(7))),
        ("0 9 * 1-6/2 *", ("0", "9", "*", "1,3,5", "*"), set(range(7))),
        ("5/20 9 * * *", ("5,25,45", "9", "*", "*", "*"), set(range(7))),
        ("0 9 29 2 *", ("0", "9", "29", "2", "*"), set(range(7))),
        ("* * * * *", ("*", "*", "*", "*", "*"), set(range(7))),
    ],
)
def test_cron_forms(text: str, fields: tuple[str, ...], weekdays: set[int]) -> None:
    spec = parse_schedule(text)
    assert spec.text == text.lower()
    assert tuple(spec.cron_fields().values()) == fields
    assert spec.weekdays == weekdays
    CronTrigger(**spec.cron_fields(), timezone=UTC)  # APScheduler accepts the fields


def test_cron_weekday_numbers_follow_cron_not_apscheduler() -> None:
    spec = parse_schedule("0 9 * * 1-5")
    # 2024-06-07 is a Friday: the next slots are Fri, Mon, Tue (no weekend).
    slots = list(islice(slots_after(spec, ZoneInfo("UTC"), utc(2024, 6, 7, 0, 0)), 3))
    assert slots == [utc(2024, 6, 7, 9, 0), utc(2024, 6, 10, 9, 0), utc(2024, 6, 11, 9, 0)]
    assert [s.weekday() for s in slots] == [FRI, MON, TUE]


def test_spec_is_frozen() -> None:
    spec = parse_schedule("daily 10:00")
    with pytest.raises(AttributeError):
        spec.text = "x"  # type: ignore[misc]


# ---------------------------------------------------------------- rejected forms


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("weekdayz 9", "unknown schedule 'weekdayz 9'"),
        ("", "the schedule is empty"),
        ("   ", "the schedule is empty"),
        ("weekdays", "unknown schedule 'weekdays'"),
        ("weekdayz 09:30", "unknown day 'weekdayz'"),
        ("mon,wex 09:30", "unknown day 'wex'"),
        ("mon-frx 09:30", "unknown day 'frx'"),
        ("fri-mon 09:30", "day range 'fri-mon' runs backwards"),
        ("weekdays 24:00", "invalid time '24:00': use 24-hour time from 00:00 to 23:59"),
        ("weekdays 9:60", "invalid time '9:60'"),
        ("weekdays 23:61", "invalid time '23:61'"),
        ("weekdays 9:5", "invalid time '9:5': write it as HH:MM"),
        ("weekdays 123:00", "invalid time '123:00'"),
        ("weekdays 9:30am", "invalid time '9:30am'"),
        ("weekdays -1:00", "invalid time '-1:00'"),
        ("09:30", "the days are missing before '09:30'"),
        ("0 9 * *", "unknown schedule '0 9 * *'"),
        ("0 0 9 * * 1-5", "unknown schedule '0 0 9 * * 1-5'"),
        ("60 9 * * *", "minute '60' has 60, outside 0-59"),
        ("0 24 * * *", "hour '24' has 24, outside 0-23"),
        ("0 9 0 * *", "day of month '0' has 0, outside 1-31"),
        ("0 9 32 * *", "day of month '32' has 32, outside 1-31"),
        ("0 9 * 13 *", "month '13' has 13, outside 1-12"),
        ("0 9 * * 8", "day of week '8' has 8, outside 0-7"),
        ("0 9 * * 5-1", "has the range 5-1, which runs backwards"),
        ("*/0 9 * * *", "has a step of 0"),
        ("0 9 ? * 1", "day of month '?' is not a cron field"),
        ("0 9 L * *", "has 'l', which is not a number or a name"),
        ("0 9 * * 1#2", "day of week '1#2' is not a cron field"),
        ("0 9 * foo *", "has 'foo', which is not a number or a name"),
        ("0 9 1 * 1", "restricts both day of month and day of week"),
        ("0 9 31 2 *", "never fires"),
        ("0 9 30 feb *", "never fires"),
    ],
)
def test_bad_schedules_explain_the_correct_form(text: str, problem: str) -> None:
    with pytest.raises(ScheduleError) as caught:
        parse_schedule(text)
    message = str(caught.value)
    assert problem in message
    assert message.endswith(USAGE)
    assert "Example: /quiz schedule weekdays 09:30 Europe/Berlin" in message
    assert isinstance(caught.value, ValueError)


def test_usage_lists_every_form() -> None:
    for form in ("weekdays HH:MM", "daily HH:MM", "mon,wed,fri HH:MM", "'0 9 * * 1-5'"):
        assert form in USAGE


# ---------------------------------------------------------------- timezones


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Europe/Berlin", "Europe/Berlin"),
        (" America/New_York ", "America/New_York"),
        ("europe/berlin", "Europe/Berlin"),
        ("UTC", "UTC"),
        ("Asia/Kolkata", "Asia/Kolkata"),
    ],
)
def test_known_timezones(name: str, key: str) -> None:
    assert parse_timezone(name).key == key


@pytest.mark.parametrize(
    "name",
    [
        "Europe/Berln",
        "",
        "Mars/Olympus",
        "../etc/passwd",
        "/etc/localtime",
        "localtime",
        "America/Argentina",  # a folder of the tz database, not a zone
        "america",
        "Etc",
        "Europe//Berlin",
        "Europe/Berlin\x00",
    ],
)
def test_unknown_timezone_names_an_example(name: str) -> None:
    with pytest.raises(ScheduleError) as caught:
        parse_timezone(name)
    message = str(caught.value)
    assert f"unknown timezone {name.strip()!r}" in message
    assert "Europe/Berlin" in message


def test_a_very_long_timezone_is_unknown_and_not_echoed_whole() -> None:
    with pytest.raises(ScheduleError) as caught:
        parse_timezone("Europe/" + "x" * 256)
    message = str(caught.value)
    assert "unknown timezone 'Europe/xxx" in message and "…" in message
    assert len(message) < 300


# ---------------------------------------------------------------- slots across DST


def test_berlin_weekdays_0930_in_winter_and_summer() -> None:
    spec = parse_schedule("weekdays 09:30")
    # Winter (CET, UTC+1): Monday 2024-01-15
    assert next_slot(spec, BERLIN, utc(2024, 1, 15, 0, 0)) == utc(2024, 1, 15, 8, 30)
    # Summer (CEST, UTC+2): Monday 2024-07-15
    assert next_slot(spec, BERLIN, utc(2024, 7, 15, 0, 0)) == utc(2024, 7, 15, 7, 30)


def test_berlin_weekdays_across_the_spring_change() -> None:
    spec = parse_schedule("weekdays 09:30")
    # Fri 2024-03-29 (CET), then the weekend with the change on Sun 03-31, then Mon (CEST)
    slots = list(islice(slots_after(spec, BERLIN, utc(2024, 3, 29, 0, 0)), 3))
    assert slots == [utc(2024, 3, 29, 8, 30), utc(2024, 4, 1, 7, 30), utc(2024, 4, 2, 7, 30)]
    assert all(s.tzinfo is UTC for s in slots)
    assert [s.astimezone(BERLIN).strftime("%a %H:%M") for s in slots] == [
        "Fri 09:30",
        "Mon 09:30",
        "Tue 09:30",
    ]


def test_berlin_weekdays_across_the_autumn_change() -> None:
    spec = parse_schedule("weekdays 09:30")
    slots = list(islice(slots_after(spec, BERLIN, utc(2024, 10, 25, 0, 0)), 2))
    assert slots == [utc(2024, 10, 25, 7, 30), utc(2024, 10, 28, 8, 30)]


def test_new_york_daily_across_both_changes() -> None:
    spec = parse_schedule("daily 09:00")
    # 2024-03-10 spring forward: EST (UTC-5) -> EDT (UTC-4)
    assert list(islice(slots_after(spec, NEW_YORK, utc(2024, 3, 9, 0, 0)), 3)) == [
        utc(2024, 3, 9, 14, 0),
        utc(2024, 3, 10, 13, 0),
        utc(2024, 3, 11, 13, 0),
    ]
    # 2024-11-03 fall back: EDT -> EST
    assert list(islice(slots_after(spec, NEW_YORK, utc(2024, 11, 2, 0, 0)), 3)) == [
        utc(2024, 11, 2, 13, 0),
        utc(2024, 11, 3, 14, 0),
        utc(2024, 11, 4, 14, 0),
    ]


def test_nonexistent_local_time_fires_once_shifted_by_the_gap() -> None:
    spec = parse_schedule("daily 02:30")
    # Berlin 2024-03-31: 02:00 CET jumps to 03:00 CEST; 02:30 fires at 03:30 CEST = 01:30 UTC
    slots = list(islice(slots_after(spec, BERLIN, utc(2024, 3, 30, 0, 0)), 3))
    assert slots == [utc(2024, 3, 30, 1, 30), utc(2024, 3, 31, 1, 30), utc(2024, 4, 1, 0, 30)]
    assert slots[1].astimezone(BERLIN).strftime("%H:%M %Z") == "03:30 CEST"
    # the same instant APScheduler's CronTrigger picks for that day
    trigger = CronTrigger(**spec.cron_fields(), timezone=BERLIN)
    fired = trigger.get_next_fire_time(None, utc(2024, 3, 31, 0, 0))
    assert fired.astimezone(UTC) == slots[1]  # (== across zones is False for a gap time)
    # New York 2024-03-10: 02:30 does not exist; fires at 03:30 EDT = 07:30 UTC
    assert next_slot(spec, NEW_YORK, utc(2024, 3, 10, 0, 0)) == utc(2024, 3, 10, 7, 30)


def test_repeated_local_time_fires_once_at_its_first_occurrence() -> None:
    spec = parse_schedule("daily 02:30")
    # Berlin 2024-10-27: 02:30 happens at 00:30 UTC (CEST) and 01:30 UTC (CET)
    slots = list(islice(slots_after(spec, BERLIN, utc(2024, 10, 26, 12, 0)), 2))
    assert slots == [utc(2024, 10, 27, 0, 30), utc(2024, 10, 28, 1, 30)]
    assert next_slot(spec, BERLIN, utc(2024, 10, 27, 0, 30)) == utc(2024, 10, 28, 1, 30)
    # APScheduler 3.11's CronTrigger alone would fire twice that day
    trigger = CronTrigger(**spec.cron_fields(), timezone=BERLIN)
    first = trigger.get_next_fire_time(None, utc(2024, 10, 26, 12, 0))
    second = trigger.get_next_fire_time(first, first)
    assert [t.astimezone(UTC) for t in (first, second)] == [
        utc(2024, 10, 27, 0, 30),
        utc(2024, 10, 27, 1, 30),
    ]
    # New York 2024-11-03: 01:30 EDT (05:30 UTC) and 01:30 EST (06:30 UTC)
    ny = parse_schedule("daily 01:30")
    assert list(islice(slots_after(ny, NEW_YORK, utc(2024, 11, 3, 0, 0)), 2)) == [
        utc(2024, 11, 3, 5, 30),
        utc(2024, 11, 4, 6, 30),
    ]


def test_every_half_hour_through_the_spring_gap_has_no_duplicates() -> None:
    spec = parse_schedule("*/30 * * * *")
    slots = list(islice(slots_after(spec, BERLIN, utc(2024, 3, 30, 23, 59)), 6))
    assert slots == [
        utc(2024, 3, 31, 0, 0),  # 01:00 CET
        utc(2024, 3, 31, 0, 30),  # 01:30 CET
        utc(2024, 3, 31, 1, 0),  # 03:00 CEST (02:00 shifts onto it: once)
        utc(2024, 3, 31, 1, 30),  # 03:30 CEST
        utc(2024, 3, 31, 2, 0),
        utc(2024, 3, 31, 2, 30),
    ]


def test_previous_slot_mirrors_next_slot() -> None:
    spec = parse_schedule("weekdays 09:30")
    # Sunday evening: the previous slot is Friday's
    assert previous_slot(spec, BERLIN, utc(2024, 6, 9, 20, 0)) == utc(2024, 6, 7, 7, 30)
    # exactly at a slot: that slot (at or before)
    assert previous_slot(spec, BERLIN, utc(2024, 6, 7, 7, 30)) == utc(2024, 6, 7, 7, 30)
    assert previous_slot(spec, BERLIN, utc(2024, 6, 7, 7, 29)) == utc(2024, 6, 6, 7, 30)
    # strictly after
    assert next_slot(spec, BERLIN, utc(2024, 6, 7, 7, 30)) == utc(2024, 6, 10, 7, 30)
    # backwards across the autumn change: each 02:30 once
    daily = parse_schedule("daily 02:30")
    assert list(islice(slots_until(daily, BERLIN, utc(2024, 10, 28, 12, 0)), 3)) == [
        utc(2024, 10, 28, 1, 30),
        utc(2024, 10, 27, 0, 30),
        utc(2024, 10, 26, 0, 30),
    ]
    assert list(islice(slots_until(daily, BERLIN, utc(2024, 4, 1, 12, 0)), 3)) == [
        utc(2024, 4, 1, 0, 30),
        utc(2024, 3, 31, 1, 30),
        utc(2024, 3, 30, 1, 30),
    ]


@pytest.mark.parametrize(
    "text", ["weekdays 09:30", "mon,wed,fri 17:05", "*/20 8-18 * * 1-5", "0 9 1,15 * *"]
)
@pytest.mark.parametrize("zone", ["Europe/Berlin", "America/New_York", "Asia/Kolkata"])
def test_agrees_with_cron_trigger_on_ordinary_days(text: str, zone: str) -> None:
    spec, tz = parse_schedule(text), ZoneInfo(zone)
    trigger = CronTrigger(**spec.cron_fields(), timezone=tz)
    start = utc(2024, 5, 1, 0, 0)  # May-August: no DST change in these zones
    expected, fired = [], None
    for _ in range(40):
        fired = trigger.get_next_fire_time(fired, fired or start)
        expected.append(fired)
    assert list(islice(slots_after(spec, tz, start), 40)) == expected


def test_leap_day_schedule_finds_the_next_leap_year() -> None:
    spec = parse_schedule("0 9 29 2 *")
    assert next_slot(spec, ZoneInfo("UTC"), utc(2024, 3, 1, 0, 0)) == utc(2028, 2, 29, 9, 0)
    assert previous_slot(spec, ZoneInfo("UTC"), utc(2024, 2, 28, 0, 0)) == utc(2020, 2, 29, 9, 0)


def test_naive_datetimes_are_refused() -> None:
    spec = parse_schedule("daily 10:00")
    with pytest.raises(ValueError, match="timezone-aware"):
        next_slot(spec, BERLIN, datetime(2024, 1, 1))
    with pytest.raises(ValueError, match="timezone-aware"):
        previous_slot(spec, BERLIN, datetime(2024, 1, 1))


# ---------------------------------------------------------------- missed slots


WEEKDAYS_0930: ScheduleSpec = parse_schedule("weekdays 09:30")
GRACE = timedelta(hours=6)


def test_down_at_the_slot_posts_it_late_within_grace() -> None:
    # Wed 2024-06-12 09:30 Berlin = 07:30 UTC; back up at 11:00 Berlin
    now = utc(2024, 6, 12, 9, 0)
    last_round = utc(2024, 6, 11, 7, 30)  # Tuesday's round exists
    assert missed_slot(WEEKDAYS_0930, BERLIN, now, GRACE, last_round) == MissedSlot(
        post=utc(2024, 6, 12, 7, 30)
    )


def test_exactly_at_the_end_of_grace_still_posts() -> None:
    now = utc(2024, 6, 12, 13, 30)
    result = missed_slot(WEEKDAYS_0930, BERLIN, now, GRACE, utc(2024, 6, 11, 7, 30))
    assert result.post == utc(2024, 6, 12, 7, 30)
    later = missed_slot(
        WEEKDAYS_0930, BERLIN, now + timedelta(seconds=1), GRACE, utc(2024, 6, 11, 7, 30)
    )
    assert later.post is None


def test_outside_grace_skips_and_reports_it() -> None:
    now = utc(2024, 6, 12, 16, 0)  # 8.5 h after the slot
    result = missed_slot(WEEKDAYS_0930, BERLIN, now, GRACE, utc(2024, 6, 11, 7, 30))
    assert result == MissedSlot(
        post=None,
        skipped=1,
        oldest_skipped=utc(2024, 6, 12, 7, 30),
        newest_skipped=utc(2024, 6, 12, 7, 30),
    )


def test_round_already_exists_for_the_slot() -> None:
    now = utc(2024, 6, 12, 9, 0)
    assert missed_slot(WEEKDAYS_0930, BERLIN, now, GRACE, utc(2024, 6, 12, 7, 30)) == MissedSlot(
        post=None
    )
    # a later round (e.g. /quiz now after the slot) also covers it
    assert missed_slot(WEEKDAYS_0930, BERLIN, now, GRACE, utc(2024, 6, 12, 8, 0)).post is None


def test_many_missed_days_post_exactly_one_and_count_the_rest() -> None:
    # last round Mon 2024-06-03; down until Wed 2024-06-12 10:00 Berlin
    now = utc(2024, 6, 12, 8, 0)
    result = missed_slot(WEEKDAYS_0930, BERLIN, now, GRACE, utc(2024, 6, 3, 7, 30))
    assert result.post == utc(2024, 6, 12, 7, 30)
    # Tue-Fri of the first week and Mon, Tue of the second: 6 older weekday slots
    assert result.skipped == 6
    assert result.oldest_skipped == utc(2024, 6, 4, 7, 30)
    assert result.newest_skipped == utc(2024, 6, 11, 7, 30)


def test_many_missed_days_outside_grace_post_none() -> None:
    now = utc(2024, 6, 12, 20, 0)
    result = missed_slot(WEEKDAYS_0930, BERLIN, now, GRACE, utc(2024, 6, 3, 7, 30))
    assert result.post is None
    assert result.skipped == 7
    assert result.newest_skipped == utc(2024, 6, 12, 7, 30)


def test_weekend_downtime_has_nothing_to_post_on_sunday() -> None:
    now = utc(2024, 6, 9, 10, 0)  # Sunday
    result = missed_slot(WEEKDAYS_0930, BERLIN, now, GRACE, utc(2024, 6, 7, 7, 30))
    assert result == MissedSlot(post=None)


def test_no_round_ever() -> None:
    inside = missed_slot(WEEKDAYS_0930, BERLIN, utc(2024, 6, 12, 9, 0), GRACE, None)
    assert inside == MissedSlot(post=utc(2024, 6, 12, 7, 30))
    outside = missed_slot(WEEKDAYS_0930, BERLIN, utc(2024, 6, 12, 20, 0), GRACE, None)
    assert outside.post is None and outside.skipped == 1


def test_configurable_grace() -> None:
    now = utc(2024, 6, 12, 9, 0)  # 90 minutes late
    last = utc(2024, 6, 11, 7, 30)
    assert missed_slot(WEEKDAYS_0930, BERLIN, now, timedelta(hours=1), last).post is None
    assert missed_slot(WEEKDAYS_0930, BERLIN, now, timedelta(hours=2), last).post is not None
    assert missed_slot(WEEKDAYS_0930, BERLIN, now, timedelta(0), last).post is None


def test_skipped_count_is_capped_for_dense_schedules() -> None:
    every_minute = parse_schedule("* * * * *")
    now = utc(2024, 6, 30, 0, 0)
    result = missed_slot(every_minute, BERLIN, now, GRACE, utc(2024, 6, 1, 0, 0))
    assert result.post == now
    assert result.skipped == SKIPPED_COUNT_LIMIT
    assert result.oldest_skipped == utc(2024, 6, 1, 0, 1)


def test_missed_slot_across_spring_forward() -> None:
    spec = parse_schedule("daily 02:30")
    # down over the change; back at 04:00 CEST on 2024-03-31 (02:00 UTC)
    result = missed_slot(spec, BERLIN, utc(2024, 3, 31, 2, 0), GRACE, utc(2024, 3, 30, 1, 30))
    assert result == MissedSlot(post=utc(2024, 3, 31, 1, 30))
