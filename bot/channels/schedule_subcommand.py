"""``/quiz schedule``: the channel's schedule and skipped days; admins set it or skip days."""

from __future__ import annotations

from bot.channels.commands import ChannelCommands
from bot.channels.setting_requests import (
    SetSchedule,
    ShowSchedule,
    SkipDays,
)
from bot.feature import Listed
from bot.kernel.local_dates import (
    RANGE_FORM,
    looks_like_days,
    parse_day_range,
)
from bot.quiz_command.grammar import (
    Arguments,
    Param,
    ParamKind,
    Subcommand,
    Suggest,
)
from bot.scheduling.schedule_spec import is_timezone_name


def looks_like_timezone(word: str) -> bool:
    """'Europe/Berlin', 'UTC' or 'Japan' (any name of the tz database), but not a cron field
    such as '*/2'."""
    if is_timezone_name(word):
        return True
    return word.upper() in ("UTC", "GMT") or ("/" in word and any(c.isalpha() for c in word))


SKIP_ACTIONS = ("skip", "unskip")


def schedule_command(arguments: Arguments) -> ShowSchedule | SetSchedule | SkipDays:
    """``/quiz schedule``, ``/quiz schedule SPEC [TIMEZONE]`` or ``/quiz schedule
    skip|unskip DATE[..DATE]``."""
    if "action" in arguments:
        if "spec" in arguments:
            raise ValueError(
                f"{arguments['action']} takes one date or range ({RANGE_FORM}), nothing else."
            )
        return SkipDays(parse_day_range(str(arguments["days"])), arguments["action"] == "skip")
    if "spec" in arguments:
        return SetSchedule(
            spec=" ".join(arguments["spec"]),  # type: ignore[arg-type]
            timezone=None if arguments.get("timezone") is None else str(arguments["timezone"]),
        )
    return ShowSchedule()


SCHEDULE = Subcommand(
    "schedule",
    "show the schedule and skipped days; admins set it (weekdays|daily|mon,wed,fri HH:MM, or"
    " 5-field cron), or skip|unskip DATE[..DATE] for holidays",
    "/quiz schedule skip {today+21}..{today+23}",
    params=(
        Param(
            "action",
            ParamKind.CHOICE,
            "Admins: skip or unskip local dates (holidays)",
            choices=SKIP_ACTIONS,
            label="action",
            admin=True,
            recognize=lambda word: word.lower() in SKIP_ACTIONS,
        ),
        Param(
            "days",
            ParamKind.WORD,
            f"Admins: {RANGE_FORM}",
            metavar="DATE[..DATE]",
            label="date or range",
            admin=True,
            needs="action",
            required=True,
            recognize=looks_like_days,
            missing=f"Give the dates to skip or unskip: {RANGE_FORM}, e.g. 2026-12-24.",
        ),
        Param(
            "spec",
            ParamKind.WORDS,
            'Admins: e.g. "weekdays 09:30" or "mon,wed,fri 10:00"',
            metavar="SPEC",
            label="schedule",
            admin=True,
        ),
        Param(
            "timezone",
            ParamKind.WORD,
            "Admins: IANA timezone, e.g. Europe/Berlin",
            metavar="TIMEZONE",
            label="timezone",
            admin=True,
            needs="spec",
            recognize=looks_like_timezone,
            suggest=Suggest.TIMEZONES,
        ),
    ),
    build=schedule_command,
    handler=ChannelCommands.schedule,
)


# where help lists it among every feature's subcommands (the channels' others: .commands)
SUBCOMMANDS: tuple[Listed, ...] = (Listed(180, SCHEDULE),)
