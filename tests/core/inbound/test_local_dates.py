"""Dates and ranges as members type them: ISO only, forwards, at most a year, not past;
each refusal says the right form."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from bot.kernel.local_dates import (
    DayRange,
    local_today,
    looks_like_days,
    parse_day,
    parse_day_range,
    refuse_past,
    refuse_too_long,
)


def test_one_date_and_a_range() -> None:
    assert parse_day("2026-12-24") == date(2026, 12, 24)
    assert parse_day_range("2026-12-24") == DayRange(date(2026, 12, 24), date(2026, 12, 24))
    span = parse_day_range("2026-12-30..2027-01-02")
    assert span.days() == [
        date(2026, 12, 30),
        date(2026, 12, 31),
        date(2027, 1, 1),
        date(2027, 1, 2),
    ]
    assert span.text() == "Wed 30 Dec 2026 – Sat 02 Jan 2027"


@pytest.mark.parametrize(
    ("word", "says"),
    [
        ("24.12.2026", "'24.12.2026' is not a date: write it as YYYY-MM-DD"),
        ("2026-2-3", "is not a date"),
        ("2026-02-30", "'2026-02-30' is not a date"),
        ("2026-12-24..", "is not a range: write it as YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD"),
        ("..2026-12-24", "is not a range"),
        (
            "2026-12-26..2026-12-24",
            "runs backwards: write the earlier date first, 2026-12-24..2026-12-26",
        ),
        ("2026-01-01..2027-01-01", "longer than a year"),
        ("2026-12-24..2026-12-25..2026-12-26", "is not a date"),
    ],
)
def test_refusals_say_the_right_form(word: str, says: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_day_range(word)
    assert says in str(refused.value)


def test_a_year_is_the_longest_range() -> None:
    assert len(parse_day_range("2027-01-01..2027-12-31").days()) == 365
    assert len(parse_day_range("2028-01-01..2028-12-31").days()) == 366  # a leap year
    with pytest.raises(ValueError, match="longer than a year"):
        refuse_too_long(date(2026, 12, 1), date(2027, 12, 1))
    refuse_too_long(date(2028, 2, 29), date(2029, 2, 28))
    with pytest.raises(ValueError, match="longer than a year"):
        refuse_too_long(date(2028, 2, 29), date(2029, 3, 1))


def test_the_past_is_refused_today_is_not() -> None:
    refuse_past(date(2026, 11, 30), date(2026, 11, 30))
    with pytest.raises(ValueError, match=r"2026-11-29 is in the past \(today is 2026-11-30\)"):
        refuse_past(date(2026, 11, 29), date(2026, 11, 30))


def test_today_is_the_local_date() -> None:
    late = datetime(2026, 11, 30, 23, 30, tzinfo=UTC)
    assert local_today(late, "UTC") == date(2026, 11, 30)
    assert local_today(late, "Europe/Berlin") == date(2026, 12, 1)
    assert local_today(late, "America/New_York") == date(2026, 11, 30)


def test_dates_are_told_from_schedules() -> None:
    assert looks_like_days("2026-12-24") and looks_like_days("2026-12-24..2026-12-26")
    assert not any(looks_like_days(w) for w in ("weekdays", "09:30", "0", "*/2", "1-5"))
