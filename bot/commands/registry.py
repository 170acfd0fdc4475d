"""Every ``/quiz`` subcommand, declared once.

Help, the admin rule, the words grammar of Slack and the console, and the Discord slash
command are all derived from :data:`QUIZ_COMMANDS`. Adding a subcommand means adding one
:class:`~bot.commands.grammar.Subcommand` here (with its typed command and handler).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from bot.bank import handlers as bank_handlers
from bot.blind import handlers as blind_handlers
from bot.commands import handlers as handle
from bot.commands.grammar import (
    Arguments,
    Param,
    ParamKind,
    Setting,
    Subcommand,
    Suggest,
    parse_words,
)
from bot.commands.typed import (
    AnswerRound,
    FlagRound,
    GradeRound,
    Help,
    PostNow,
    QuizCommand,
    RevealNow,
    ReviewDecision,
    SetAnswerMode,
    SetFollowUps,
    SetGoal,
    SetGrace,
    SetPaused,
    SetRecap,
    SetReminder,
    SetRevealEmoji,
    SetRevealReactors,
    SetSchedule,
    SetTopics,
    ShowGoal,
    ShowLeaderboard,
    ShowMe,
    ShowPacks,
    ShowRecap,
    ShowReminder,
    ShowReview,
    ShowSchedule,
    ShowStats,
    ShowTopics,
    SkipRound,
    StartPractice,
    StopPractice,
    StopReminder,
    SuggestQuestion,
)
from bot.kernel.grades import GRADE_WORDS, Grade
from bot.kernel.models import AnswerMode, FollowUpPolicy
from bot.kernel.quoting import quoted
from bot.kernel.scoring import Period
from bot.practice import handlers as practice_handlers
from bot.recaps import handlers as recap_handlers
from bot.recaps.schedule import DEFAULT_RECAP_TIME, parse_recap_time
from bot.reminders import handlers as reminder_handlers
from bot.scheduling.schedule_spec import ScheduleError, parse_timezone

MAX_GRACE_HOURS = 48
REVIEW_ACTIONS = ("approve", "reject", "edit")
MAX_REVEAL_REACTORS = 50

PUBLIC = Param("public", ParamKind.FLAG, "Post it in the channel")
TOPIC_PARAMS = (
    Param(
        "action",
        ParamKind.CHOICE,
        "Admins: enable or disable",
        choices=("enable", "disable"),
        admin=True,
        label="action",
    ),
    Param(
        "names",
        ParamKind.WORDS,
        "Topics, space-separated",
        metavar="TOPIC",
        label="topic",
        required=True,
        admin=True,
        needs="action",
        suggest=Suggest.TOPICS,
    ),
)


GOAL_OFF = "off"
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def grade_command(arguments: Arguments) -> GradeRound:
    word = _text(arguments.get("grade"))
    return GradeRound(None if word is None else Grade.from_word(word))


def goal_command(arguments: Arguments) -> ShowGoal | SetGoal:
    word = _text(arguments.get("date"))
    if word is None:
        return ShowGoal()
    if word.lower() == GOAL_OFF:
        return SetGoal(None)
    try:
        if not ISO_DATE.fullmatch(word):
            raise ValueError(word)
        return SetGoal(date.fromisoformat(word))
    except ValueError:
        raise ValueError(f"{word!r} is not a date: give YYYY-MM-DD or off.") from None


def looks_like_timezone(word: str) -> bool:
    """'Europe/Berlin' or 'UTC', but not a cron field such as '*/2'."""
    return word.upper() in ("UTC", "GMT") or ("/" in word and any(c.isalpha() for c in word))


SCHEDULE_PARAMS = (
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
)

CHANNEL_SETTINGS: tuple[Setting[Any], ...] = (
    Setting(
        "reveal-emoji",
        Param(
            "value",
            ParamKind.EMOJI,
            "an emoji",
            metavar="EMOJI",
            invalid="{value} is not an emoji.",
        ),
        lambda emoji: SetRevealEmoji(emoji=emoji),
    ),
    Setting(
        "followups",
        Param(
            "value",
            ParamKind.CHOICE,
            "when follow-ups are posted",
            metavar="POLICY",  # the help's summary lists the policies
            choices=tuple(p.value for p in FollowUpPolicy),
            invalid="Unknown follow-up policy {value}.",
        ),
        lambda policy: SetFollowUps(policy=FollowUpPolicy(policy)),
    ),
    Setting(
        "grace",
        Param(
            "value",
            ParamKind.NUMBER,
            "hours",
            metavar="HOURS",
            maximum=MAX_GRACE_HOURS,
            invalid=f"Grace must be a number of hours from 0 to {MAX_GRACE_HOURS}.",
        ),
        lambda hours: SetGrace(hours=hours),
    ),
    Setting(
        "reveal-reactors",
        Param(
            "value",
            ParamKind.NUMBER,
            "members",
            metavar="N",
            minimum=1,
            maximum=MAX_REVEAL_REACTORS,
            integer=True,
            invalid=f"Reveal reactors must be from 1 to {MAX_REVEAL_REACTORS}.",
        ),
        lambda count: SetRevealReactors(count=count),
    ),
    Setting(
        "answers",
        Param(
            "value",
            ParamKind.CHOICE,
            "where members answer: in the thread, or blind until the reveal",
            choices=tuple(m.value for m in AnswerMode),
            invalid="Unknown answer mode {value}: give thread or blind.",
        ),
        lambda mode: SetAnswerMode(mode=AnswerMode(mode)),
    ),
)

RECAP_PARAMS = (
    Param(
        "day",
        ParamKind.WORD,
        "Admins: off, or the day (mon..sun)",
        metavar="DAY",
        alone="off",
        label="day",
        admin=True,
    ),
    Param(
        "time",
        ParamKind.WORD,
        "Admins: the time, HH:MM (24 h; default 16:00)",
        metavar="HH:MM",
        label="time",
        admin=True,
        needs="day",
    ),
)


PRACTICE_STOP = "stop"


def practice_command(arguments: Arguments) -> StartPractice | StopPractice:
    topic = _text(arguments.get("topic"), lower=True)
    if topic == PRACTICE_STOP:
        return StopPractice()
    return StartPractice(topic)


REMIND_OFF = "off"
CLOCK_TIME = re.compile(r"(\d{1,2}):(\d{2})")


def remind_command(arguments: Arguments) -> ShowReminder | SetReminder | StopReminder:
    """``/quiz remind``, ``/quiz remind off`` or ``/quiz remind HH:MM [TIMEZONE]``."""
    at, zone = _text(arguments.get("time")), _text(arguments.get("timezone"))
    if at is None:
        return ShowReminder()
    if at.lower() == REMIND_OFF:
        return StopReminder()
    match = CLOCK_TIME.fullmatch(at)
    if match is None:
        raise ValueError(f"{quoted(at)} is not a time: write it as HH:MM, e.g. 08:30.")
    hour, minute = int(match[1]), int(match[2])
    if hour > 23 or minute > 59:
        raise ValueError(f"{quoted(at)} is not a time of day: use 24-hour time, 00:00 to 23:59.")
    if zone is not None:
        try:
            zone = parse_timezone(zone).key
        except ScheduleError:
            raise ValueError(
                f"Unknown timezone {quoted(zone)}: use an IANA name such as Europe/Berlin, "
                "America/New_York or UTC."
            ) from None
    return SetReminder(f"{hour:02d}:{minute:02d}", zone)


def recap_command(arguments: Arguments) -> ShowRecap | SetRecap:
    """``/quiz recap``, ``/quiz recap off`` or ``/quiz recap DAY [HH:MM]`` (16:00 if no time)."""
    if "day" not in arguments:
        return ShowRecap()
    day, at = str(arguments["day"]), arguments.get("time")
    if day.lower() == "off":
        return SetRecap(schedule=None)
    return SetRecap(schedule=parse_recap_time(day, str(at or DEFAULT_RECAP_TIME)))


QUIZ_COMMANDS: tuple[Subcommand, ...] = (
    Subcommand(
        "help",
        "this list",
        "/quiz help",
        build=lambda _: Help(),
        handler=handle.show_help,
        needs_channel=False,
        in_direct=True,
    ),
    Subcommand(
        "leaderboard",
        "top members of this channel",
        "/quiz leaderboard week",
        params=(
            Param(
                "period",
                ParamKind.CHOICE,
                "Which answers count",
                choices=tuple(p.value for p in Period),
            ),
            PUBLIC,
        ),
        build=lambda a: ShowLeaderboard(
            period=Period(str(a.get("period", Period.WEEK))), public=bool(a.get("public"))
        ),
        handler=handle.show_leaderboard,
    ),
    Subcommand(
        "me",
        "your points, rank, streaks, topics and mastery",
        "/quiz me",
        build=lambda _: ShowMe(),
        handler=handle.show_me,
        needs_channel=False,
        in_direct=True,
    ),
    Subcommand(
        "grade",
        "after the reveal, grade your answer (only you see it)",
        "/quiz grade partly",
        params=(
            Param(
                "grade",
                ParamKind.CHOICE,
                "How your answer compared with the outline's key points",
                choices=GRADE_WORDS,
            ),
        ),
        build=grade_command,
        handler=handle.grade,
        needs_channel=False,
        in_direct=True,
    ),
    Subcommand(
        "goal",
        "the date your practice aims at, e.g. an interview (default: 30 days ahead)",
        "/quiz goal 2027-01-15",
        params=(
            Param(
                "date",
                ParamKind.WORD,
                "YYYY-MM-DD, or off",
                metavar="YYYY-MM-DD",
                alone=GOAL_OFF,
                label="date",
            ),
        ),
        build=goal_command,
        handler=handle.goal,
        needs_channel=False,
        in_direct=True,
    ),
    Subcommand(
        "practice",
        "practise alone in your direct messages, like an interview; stop ends it",
        "/quiz practice attention",
        params=(
            Param(
                "topic",
                ParamKind.WORD,
                "Only from this topic, or stop",
                metavar="TOPIC",
                alone=PRACTICE_STOP,
                label="topic",
                suggest=Suggest.TOPICS,
            ),
        ),
        build=practice_command,
        handler=practice_handlers.practice,
        needs_channel=False,
        in_direct=True,
    ),
    Subcommand(
        "answer",
        "in a blind channel, answer privately until the reveal (without TEXT: a form)",
        "/quiz answer shard the KV cache by attention head",
        params=(
            Param(
                "text",
                ParamKind.TEXT,
                "Your answer; without it a form opens",
                metavar="TEXT",
                label="answer",
            ),
        ),
        build=lambda a: AnswerRound(text=str(a.get("text", ""))),
        handler=blind_handlers.answer,
    ),
    Subcommand(
        "remind",
        "a daily direct message at your local time when reviews are due; off stops it",
        "/quiz remind 08:30 Europe/Berlin",
        params=(
            Param(
                "time",
                ParamKind.WORD,
                "HH:MM (24 h), or off",
                metavar="HH:MM",
                alone=REMIND_OFF,
                label="time",
            ),
            Param(
                "timezone",
                ParamKind.WORD,
                "IANA timezone, e.g. Europe/Berlin (default: yours, else the channel's)",
                metavar="TIMEZONE",
                label="timezone",
                needs="time",
                suggest=Suggest.TIMEZONES,
            ),
        ),
        build=remind_command,
        handler=reminder_handlers.remind,
        needs_channel=False,
        in_direct=True,
    ),
    Subcommand(
        "stats",
        "this channel's totals",
        "/quiz stats",
        params=(PUBLIC,),
        build=lambda a: ShowStats(public=bool(a.get("public"))),
        handler=handle.show_stats,
    ),
    Subcommand(
        "topics",
        "list topics; admins enable or disable them",
        "/quiz topics enable gpu-architecture rdma",
        params=TOPIC_PARAMS,
        build=lambda a: (
            SetTopics(
                enable=a["action"] == "enable",
                topics=tuple(dict.fromkeys(str(t).lower() for t in a["names"])),  # type: ignore[union-attr]
            )
            if "action" in a
            else ShowTopics()
        ),
        handler=handle.topics,
        needs_channel=False,
        in_direct=True,
    ),
    Subcommand(
        "schedule",
        "show the schedule; admins set it (weekdays|daily|mon,wed,fri HH:MM, or 5-field cron)",
        "/quiz schedule weekdays 09:30 Europe/Berlin",
        params=SCHEDULE_PARAMS,
        build=lambda a: (
            SetSchedule(spec=" ".join(a["spec"]), timezone=_text(a.get("timezone")))  # type: ignore[arg-type]
            if "spec" in a
            else ShowSchedule()
        ),
        handler=handle.schedule,
    ),
    Subcommand(
        "packs",
        "the question packs",
        "/quiz packs",
        build=lambda _: ShowPacks(),
        handler=handle.show_packs,
        needs_channel=False,
        in_direct=True,
    ),
    Subcommand(
        "suggest",
        "suggest a question (a form: topic, question, outline, follow-ups, key points)",
        "/quiz suggest",
        build=lambda _: SuggestQuestion(),
        handler=bank_handlers.suggest,
        needs_channel=False,  # it says where to suggest instead
    ),
    Subcommand(
        "flag",
        "report a mistake in the current or latest round's question or outline",
        "/quiz flag the H100 has 80 GB of HBM3, not 40",
        params=(
            Param(
                "reason",
                ParamKind.TEXT,
                "What is wrong",
                metavar="REASON",
                label="reason",
                required=True,
                missing="Say what is wrong.",
            ),
        ),
        build=lambda a: FlagRound(reason=str(a.get("reason", ""))),
        handler=bank_handlers.flag,
    ),
    Subcommand(
        "now",
        "post a question now",
        "/quiz now attention",
        params=(
            Param(
                "topic",
                ParamKind.WORD,
                "Only from this topic",
                metavar="TOPIC",
                label="topic",
                suggest=Suggest.TOPICS,
            ),
        ),
        build=lambda a: PostNow(topic=_text(a.get("topic"), lower=True)),
        handler=handle.post_now,
        admin=True,
    ),
    Subcommand(
        "reveal",
        "post the answer outline now",
        "/quiz reveal",
        build=lambda _: RevealNow(),
        handler=handle.reveal_now,
        admin=True,
    ),
    Subcommand(
        "skip",
        "close the current round",
        "/quiz skip",
        build=lambda _: SkipRound(),
        handler=handle.skip_round,
        admin=True,
    ),
    Subcommand(
        "pause",
        "stop scheduled questions",
        "/quiz pause",
        build=lambda _: SetPaused(paused=True),
        handler=handle.set_paused,
        admin=True,
    ),
    Subcommand(
        "resume",
        "resume scheduled questions",
        "/quiz resume",
        build=lambda _: SetPaused(paused=False),
        handler=handle.set_paused,
        admin=True,
    ),
    Subcommand(
        "recap",
        "show the weekly recap's day and time; admins set it or turn it off",
        "/quiz recap fri 16:00",
        params=RECAP_PARAMS,
        build=recap_command,
        handler=recap_handlers.recap,
    ),
    Subcommand(
        "review",
        "pending suggestions and flags; approve, reject or edit one (ITEM: s<N> or f<N>)",
        "/quiz review reject s3 already covered by the KV cache question",
        params=(
            Param(
                "action",
                ParamKind.CHOICE,
                "approve, reject or edit",
                choices=REVIEW_ACTIONS,
                label="action",
            ),
            Param(
                "item",
                ParamKind.WORD,
                "s<N> (a suggestion) or f<N> (a flag)",
                metavar="ITEM",
                label="item (s<N> or f<N>)",
                required=True,
                needs="action",
            ),
            Param(
                "reason",
                ParamKind.TEXT,
                "Why (shown to the suggester)",
                metavar="REASON",
                label="reason",
                needs="item",
            ),
        ),
        build=lambda a: (
            ReviewDecision(
                action=str(a["action"]),
                item=str(a["item"]),
                reason=str(a.get("reason", "")),
            )
            if "action" in a
            else ShowReview()
        ),
        handler=bank_handlers.review,
        admin=True,
    ),
    Subcommand(
        "config",
        "channel behaviour (POLICY: after_first_answer, immediately, with_reveal;"
        " answers: thread, or blind until the reveal)",
        "/quiz config answers blind",
        settings=CHANNEL_SETTINGS,
        handler=handle.configure,
        admin=True,
    ),
)
COMMANDS_BY_NAME = {c.name: c for c in QUIZ_COMMANDS}


def _text(value: object, *, lower: bool = False) -> str | None:
    if value is None:
        return None
    return str(value).lower() if lower else str(value)


def find_subcommand(name: str) -> Subcommand | None:
    return COMMANDS_BY_NAME.get(name.strip().lower())


def needs_admin(name: str, args: Sequence[str]) -> bool:
    """Whether ``/quiz NAME ARGS`` needs an admin (``topics`` and ``schedule`` only change
    things when given arguments), decided before the arguments are parsed."""
    subcommand = find_subcommand(name)
    return subcommand is not None and subcommand.needs_admin(args)


def works_in_direct(name: str, args: Sequence[str]) -> bool:
    """Whether ``/quiz NAME ARGS`` may run in direct messages with the bot: only a subcommand
    declared ``in_direct``, and never an admin's use (it would act on a channel). An unknown
    one gets help, which works anywhere."""
    subcommand = find_subcommand(name)
    if subcommand is None:
        return True
    return subcommand.in_direct and not subcommand.needs_admin(args)


def direct_refusal(name: str) -> str:
    """What a member is told who ran ``/quiz NAME`` in direct messages, where it cannot run."""
    usable = ", ".join(f"`/quiz {c.name}`" for c in QUIZ_COMMANDS if c.in_direct)
    return (
        f"`/quiz {name.strip().lower()}` works only in a channel: run it in the quiz's "
        f"channel. In direct messages with me you can use {usable}."
    )


def parse_command(name: str, args: Sequence[str], text: str | None = None) -> QuizCommand:
    """Parse ``/quiz NAME ARGS...``; raises CommandError with the right form on bad input.
    ``text`` is the raw text ARGS were split from, if any: free text is taken from it as typed.

    An unknown subcommand gives Help with a note rather than an error.
    """
    if name.strip().lower() in ("", "help"):
        return Help()
    command: QuizCommand | None = parse_words(COMMANDS_BY_NAME, name, args, text)
    if command is None:
        return Help(note=f"Unknown command {quoted(name.strip().lower())}.")
    return command
