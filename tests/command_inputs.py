"""Hypothesis strategies for ``/quiz`` input: real subcommands and words mixed with
Unicode, control characters, very long values and digits Python reads oddly.

The fuzz tests use them with a fixed seed (``FUZZ``): the same inputs on every run,
so the suite stays deterministic and fast.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from zoneinfo import available_timezones

from hypothesis import HealthCheck, example, settings
from hypothesis import strategies as st

from bot.features import SUBCOMMANDS_BY_NAME

FUZZ = settings(
    derandomize=True,  # the same examples every run, chosen from the test's own source
    database=None,
    max_examples=300,
    deadline=None,
    # One bot serves every example, as one bot serves every member.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def with_reported_inputs(test: Callable[..., Any]) -> Callable[..., Any]:
    """The inputs that crashed the bot when reported: always tried, before the fuzz."""
    for text in (
        "schedule daily 10:00 America/Argentina",
        "schedule daily 10:00 Europe/" + "x" * 256,
        "config reveal-reactors " + "9" * 5000,
    ):
        test = example(text=text)(test)
    return test


SUBCOMMANDS = [*SUBCOMMANDS_BY_NAME, "", "HELP", "Now", "frobnicate", "config\u00a0grace"]
KNOWN_WORDS = [
    "enable",
    "disable",
    "week",
    "month",
    "all",
    "public",
    "reveal-emoji",
    "followups",
    "grace",
    "reveal-reactors",
    "with_reveal",
    "immediately",
    "gpu",
    "daily",
    "weekdays",
    "mon-fri",
    "mon,wed,fri",
    "09:30",
    "0",
    "*",
    "*/5",
    "1-5",
    "feb",
    "UTC",
    "Europe/Berlin",
    "America/Argentina",
    "Etc",
    "localtime",
    "../../etc/passwd",
    "💡",
    ":bulb:",
    "nan",
    "inf",
    "-1",
    "1_0",
]

odd_digits = st.text(st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=6)
long_values = st.builds(
    lambda unit, count: unit * count,
    st.sampled_from(["9", "0", "x", "é", "/", "🦄", "*/", "Europe/"]),
    st.sampled_from([250, 256, 300, 4301, 5000]),  # past a file name's and int()'s limits
)
any_text = st.text(
    st.characters(exclude_categories=["Cs"], include_characters="\x00\x1b\t\u202e\ufeff"),
    min_size=1,
    max_size=24,
)
words = st.one_of(
    st.sampled_from(KNOWN_WORDS),
    odd_digits,
    long_values,
    any_text,
    st.builds(
        "/".join, st.lists(st.sampled_from(["Europe", "America", "x" * 255, ""]), max_size=3)
    ),
)


def mostly(valid: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``valid`` three times in four, else any word: inputs that get far into the grammar."""
    return st.integers(min_value=0, max_value=3).flatmap(lambda n: valid if n else words)


HUGE = "9" * 5000  # int() refuses digit strings past 4,300 digits
ODD_DIGITS = ["²", "٣", "１", "Ⅻ", "٠٩"]  # digits Python reads (or refuses) in its own way
zone_folders = sorted({key.rpartition("/")[0] for key in available_timezones() if "/" in key})
timezone = mostly(
    st.sampled_from(["UTC", "europe/berlin", "Europe/" + "x" * 256, *zone_folders, *ODD_DIGITS])
)
time_of_day = mostly(st.sampled_from(["09:30", "23:59", "24:00", "9:5", "٠٩:٣٠", HUGE + ":00"]))
days = mostly(st.sampled_from(["daily", "weekdays", "mon-fri", "sun-mon", "mon,,fri"]))
cron_field = mostly(
    st.sampled_from(["*", "0", "9", "*/5", "1-5", "mon-fri", "jan", "*/0", HUGE, "*/" + HUGE])
)
number = mostly(
    st.sampled_from(["3", "50", "0", "51", HUGE, "nan", "inf", "-1", "1e308", *ODD_DIGITS])
)
setting = mostly(st.sampled_from(["reveal-emoji", "followups", "grace", "reveal-reactors"]))


def _line(*parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(*parts).map(" ".join)


quiz_inputs = st.one_of(
    _line(st.just("schedule"), days, time_of_day, timezone),
    _line(st.just("schedule"), *[cron_field] * 5, timezone),
    _line(st.just("config"), setting, number),
    _line(st.just("config"), setting, words),
    _line(st.just("topics"), mostly(st.sampled_from(["enable", "disable"])), words),
    _line(st.sampled_from(SUBCOMMANDS), st.lists(words, max_size=5).map(" ".join)),
    _line(any_text, st.lists(words, max_size=5).map(" ".join)),
)
"""The text after ``/quiz``: a subcommand (or anything) and words in the places its grammar
expects them, each valid or not."""
