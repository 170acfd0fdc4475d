"""The ``/quiz`` grammar: words in, typed commands out. One grammar for every platform."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.models import FollowUpPolicy
from bot.quoting import quoted
from bot.scoring import Period


class CommandError(ValueError):
    """A bad ``/quiz`` argument; the message gives the right form and an example."""


@dataclass(frozen=True, slots=True)
class Usage:
    form: str
    example: str
    summary: str
    admin: bool = False


USAGE: dict[str, Usage] = {
    "help": Usage("/quiz help", "/quiz help", "this list"),
    "leaderboard": Usage(
        "/quiz leaderboard [week|month|all] [public]",
        "/quiz leaderboard week",
        "top members of this channel",
    ),
    "me": Usage("/quiz me", "/quiz me", "your points, rank, streaks and topics"),
    "stats": Usage("/quiz stats [public]", "/quiz stats", "this channel's totals"),
    "topics": Usage(
        "/quiz topics  |  /quiz topics enable|disable TOPIC...",
        "/quiz topics enable gpu-architecture rdma",
        "list topics; admins enable or disable them",
    ),
    "schedule": Usage(
        "/quiz schedule  |  /quiz schedule SPEC [TIMEZONE]",
        "/quiz schedule weekdays 09:30 Europe/Berlin",
        "show the schedule; admins set it (weekdays|daily|mon,wed,fri HH:MM, or 5-field cron)",
    ),
    "packs": Usage("/quiz packs", "/quiz packs", "the question packs"),
    "now": Usage("/quiz now [TOPIC]", "/quiz now attention", "post a question now", admin=True),
    "reveal": Usage("/quiz reveal", "/quiz reveal", "post the answer outline now", admin=True),
    "skip": Usage("/quiz skip", "/quiz skip", "close the current round", admin=True),
    "pause": Usage("/quiz pause", "/quiz pause", "stop scheduled questions", admin=True),
    "resume": Usage("/quiz resume", "/quiz resume", "resume scheduled questions", admin=True),
    "config": Usage(
        "/quiz config reveal-emoji EMOJI | followups POLICY | grace HOURS | reveal-reactors N",
        "/quiz config followups with_reveal",
        "channel behaviour (POLICY: after_first_answer, immediately, with_reveal)",
        admin=True,
    ),
}


@dataclass(frozen=True, slots=True)
class Help:
    note: str = ""


@dataclass(frozen=True, slots=True)
class ShowLeaderboard:
    period: Period = Period.WEEK
    public: bool = False


@dataclass(frozen=True, slots=True)
class ShowMe:
    pass


@dataclass(frozen=True, slots=True)
class ShowStats:
    public: bool = False


@dataclass(frozen=True, slots=True)
class ShowTopics:
    pass


@dataclass(frozen=True, slots=True)
class ShowSchedule:
    pass


@dataclass(frozen=True, slots=True)
class ShowPacks:
    pass


@dataclass(frozen=True, slots=True)
class PostNow:
    topic: str | None = None


@dataclass(frozen=True, slots=True)
class RevealNow:
    pass


@dataclass(frozen=True, slots=True)
class SkipRound:
    pass


@dataclass(frozen=True, slots=True)
class SetTopics:
    enable: bool
    topics: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SetSchedule:
    spec: str
    timezone: str | None


@dataclass(frozen=True, slots=True)
class SetPaused:
    paused: bool


@dataclass(frozen=True, slots=True)
class SetRevealEmoji:
    emoji: str


@dataclass(frozen=True, slots=True)
class SetFollowUps:
    policy: FollowUpPolicy


@dataclass(frozen=True, slots=True)
class SetGrace:
    hours: float


@dataclass(frozen=True, slots=True)
class SetRevealReactors:
    count: int


MemberCommand = Help | ShowLeaderboard | ShowMe | ShowStats | ShowTopics | ShowSchedule | ShowPacks
AdminCommand = (
    PostNow
    | RevealNow
    | SkipRound
    | SetTopics
    | SetSchedule
    | SetPaused
    | SetRevealEmoji
    | SetFollowUps
    | SetGrace
    | SetRevealReactors
)
QuizCommand = MemberCommand | AdminCommand
_Parser = Callable[[list[str]], QuizCommand]

MAX_GRACE_HOURS = 48
MAX_REVEAL_REACTORS = 50


def needs_admin(name: str, args: Sequence[str]) -> bool:
    """Whether ``/quiz NAME ARGS`` is an admin command (``topics`` and ``schedule`` only
    change things when given arguments), decided before the arguments are parsed."""
    name = name.strip().lower()
    usage = USAGE.get(name)
    if usage is None:
        return False
    return usage.admin or (name in ("topics", "schedule") and any(a.strip() for a in args))


def parse_command(name: str, args: Sequence[str]) -> QuizCommand:
    """Parse ``/quiz NAME ARGS...``; raises CommandError with the right form on bad input.

    An unknown subcommand gives Help with a note rather than an error.
    """
    name = name.strip().lower()
    words = [a for a in (w.strip() for w in args) if a]
    if name in ("", "help"):
        return Help()
    if name not in USAGE:
        return Help(note=f"Unknown command {quoted(name)}.")
    parser = _PARSERS[name]
    return parser(words)


def _bad(name: str, problem: str) -> CommandError:
    usage = USAGE[name]
    return CommandError(f"{problem}\nUse: {usage.form}\nExample: {usage.example}")


def _no_args(name: str, command: QuizCommand) -> _Parser:
    def parse(words: list[str]) -> QuizCommand:
        if words:
            raise _bad(name, f"/quiz {name} takes no arguments.")
        return command

    return parse


def _leaderboard(words: list[str]) -> QuizCommand:
    period, public = Period.WEEK, False
    seen_period = False
    for word in words:
        lowered = word.lower()
        if lowered == "public" and not public:
            public = True
        elif lowered in {p.value for p in Period} and not seen_period:
            period, seen_period = Period(lowered), True
        else:
            raise _bad("leaderboard", f"Unexpected {quoted(word)}.")
    return ShowLeaderboard(period=period, public=public)


def _stats(words: list[str]) -> QuizCommand:
    if not words:
        return ShowStats()
    if len(words) == 1 and words[0].lower() == "public":
        return ShowStats(public=True)
    raise _bad("stats", f"Unexpected {quoted(' '.join(words))}.")


def _topics(words: list[str]) -> QuizCommand:
    if not words:
        return ShowTopics()
    action, topics = words[0].lower(), tuple(dict.fromkeys(w.lower() for w in words[1:]))
    if action not in ("enable", "disable"):
        raise _bad("topics", f"Expected 'enable' or 'disable', not {quoted(words[0])}.")
    if not topics:
        raise _bad("topics", f"Name at least one topic to {action}.")
    return SetTopics(enable=action == "enable", topics=topics)


def _schedule(words: list[str]) -> QuizCommand:
    if not words:
        return ShowSchedule()
    timezone: str | None = None
    if _looks_like_timezone(words[-1]):
        timezone, words = words[-1], words[:-1]
    if not words:
        raise _bad("schedule", "The schedule is missing before the timezone.")
    return SetSchedule(spec=" ".join(words), timezone=timezone)


def _looks_like_timezone(word: str) -> bool:
    """'Europe/Berlin' or 'UTC', but not a cron field such as '*/2'."""
    return word.upper() in ("UTC", "GMT") or ("/" in word and any(c.isalpha() for c in word))


def _now(words: list[str]) -> QuizCommand:
    if len(words) > 1:
        raise _bad("now", "Name at most one topic.")
    return PostNow(topic=words[0].lower() if words else None)


def _config(words: list[str]) -> QuizCommand:
    if len(words) != 2:
        raise _bad("config", "Give one setting and its value.")
    setting, value = words[0].lower(), words[1]
    if setting == "reveal-emoji":
        if len(value) > 64 or value.isalnum():
            raise _bad("config", f"{quoted(value)} is not an emoji.")
        return SetRevealEmoji(emoji=value)
    if setting == "followups":
        try:
            return SetFollowUps(policy=FollowUpPolicy(value.lower()))
        except ValueError:
            raise _bad("config", f"Unknown follow-up policy {quoted(value)}.") from None
    if setting == "grace":
        try:
            hours = float(value)
        except ValueError:
            hours = -1.0
        if not 0 <= hours <= MAX_GRACE_HOURS:
            raise _bad("config", f"Grace must be a number of hours from 0 to {MAX_GRACE_HOURS}.")
        return SetGrace(hours=hours)
    if setting == "reveal-reactors":
        digits = value.isascii() and value.isdigit() and len(value) <= len(str(MAX_REVEAL_REACTORS))
        if not digits or not 1 <= int(value) <= MAX_REVEAL_REACTORS:
            raise _bad("config", f"Reveal reactors must be from 1 to {MAX_REVEAL_REACTORS}.")
        return SetRevealReactors(count=int(value))
    raise _bad("config", f"Unknown setting {quoted(words[0])}.")


_PARSERS: dict[str, _Parser] = {
    "leaderboard": _leaderboard,
    "me": _no_args("me", ShowMe()),
    "stats": _stats,
    "topics": _topics,
    "schedule": _schedule,
    "packs": _no_args("packs", ShowPacks()),
    "now": _now,
    "reveal": _no_args("reveal", RevealNow()),
    "skip": _no_args("skip", SkipRound()),
    "pause": _no_args("pause", SetPaused(paused=True)),
    "resume": _no_args("resume", SetPaused(paused=False)),
    "config": _config,
}
