"""Every ``/quiz`` subcommand, collected from the features that declare them.

Each feature declares its subcommands beside their handlers and typed commands (e.g.
:mod:`bot.practice.commands`); this module only puts them in the order help lists them.
Help, the admin and direct-message rules, the words grammar of Slack and the console, and
the Discord slash command are all derived from :data:`QUIZ_COMMANDS`, and one invocation
is parsed once, by :func:`parse_invocation`. :data:`FAMILIES` groups related subcommands
where a platform nests them (Discord).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.away.commands import AWAY
from bot.bank.commands import FLAG, PACKS, REVIEW, SUGGEST
from bot.blind.commands import ANSWER
from bot.channels.commands import CONFIG, PAUSE, RESUME, SCHEDULE, TOPICS
from bot.commands.grammar import Subcommand
from bot.commands.help import HELP
from bot.commands.typed import CommandError, Help, QuizCommand
from bot.learning.commands import GOAL, GRADE, ME
from bot.member_data.commands import EXPORT, FORGET
from bot.notices.commands import NOTIFY
from bot.pairing.commands import PAIR
from bot.practice.commands import HINT, PRACTICE
from bot.recaps.commands import RECAP
from bot.reminders.commands import REMIND
from bot.reviews.commands import BEST, COVERED, RATE
from bot.rounds.commands import LEADERBOARD, NOW, REVEAL, SKIP, STATS

QUIZ_COMMANDS: tuple[Subcommand, ...] = (
    HELP,
    LEADERBOARD,
    ME,
    GRADE,
    COVERED,
    RATE,
    GOAL,
    PRACTICE,
    HINT,
    ANSWER,
    REMIND,
    EXPORT,
    FORGET,
    AWAY,
    NOTIFY,
    PAIR,
    STATS,
    TOPICS,
    SCHEDULE,
    PACKS,
    SUGGEST,
    FLAG,
    NOW,
    REVEAL,
    BEST,
    SKIP,
    PAUSE,
    RESUME,
    RECAP,
    REVIEW,
    CONFIG,
)
COMMANDS_BY_NAME = {c.name: c for c in QUIZ_COMMANDS}


@dataclass(frozen=True, slots=True)
class Family:
    """Related subcommands offered together where a platform nests its commands."""

    name: str  # never a subcommand's name
    summary: str
    members: tuple[Subcommand, ...]


# Where commands nest (Discord's subcommand groups: `/quiz round grade`), these go under one
# word each, which keeps room on a command for more; the words of Slack and the console do
# not change (`/quiz grade`). A subcommand is in one family at most.
FAMILIES: tuple[Family, ...] = (
    Family(
        "round",
        "The day's question: answer, grade, tick, review, report",
        (ANSWER, GRADE, COVERED, RATE, FLAG),
    ),
    Family("questions", "The questions: topics, packs, suggest one", (TOPICS, PACKS, SUGGEST)),
    Family(
        "channel", "This channel's schedule, weekly recap and settings", (SCHEDULE, RECAP, CONFIG)
    ),
    Family(
        "reminders",
        "Your direct messages: a daily reminder, notices, time away",
        (REMIND, NOTIFY, AWAY),
    ),
    Family("data", "Your own data: a copy of it, or erase it", (EXPORT, FORGET)),
)
FAMILY_OF = {member.name: family for family in FAMILIES for member in family.members}


@dataclass(frozen=True, slots=True)
class Invocation:
    """One ``/quiz NAME ARGS`` parsed once: the subcommand that handles it (help for an
    unknown one), its typed command or what is wrong with its arguments, and the rules
    the inbound chain and the runner read from it."""

    name: str  # as typed, lower-cased
    subcommand: Subcommand
    admin: bool  # needs an admin (``topics`` and ``schedule`` only when given arguments)
    in_direct: bool  # may run in direct messages with the bot
    parsed: QuizCommand | None
    problem: CommandError | None = None
    action: str = ""  # the first argument as typed, lower-cased ("enable" of topics enable)

    @property
    def command(self) -> QuizCommand:
        """The typed command; raises the CommandError of a bad argument."""
        if self.problem is not None:
            raise self.problem
        assert self.parsed is not None  # one of the two is always set
        return self.parsed

    def direct_refusal(self) -> str:
        if not self.subcommand.in_direct or not self.action:
            return direct_refusal(self.name)
        # refused as an admin's use of a command whose member use works here
        return (
            f"`/quiz {self.name} {self.action}` changes a channel: run it in the quiz's"
            f" channel. `/quiz {self.name}` (as a member) works here. In direct messages with"
            f" me you can use {_usable_in_direct()}."
        )


def parse_invocation(name: str, args: Sequence[str], text: str | None = None) -> Invocation:
    """``/quiz NAME ARGS...`` parsed once. ``text`` is the raw text ARGS were split from, if
    any: free text is taken from it as typed. An unknown subcommand is help naming it;
    a bad argument is kept as the invocation's problem, raised when its command is asked
    for, so the rules (direct messages, admins) still come first."""
    typed = name.strip().lower()
    subcommand = COMMANDS_BY_NAME.get(typed)
    if subcommand is HELP:  # whatever follows it
        return Invocation(typed, HELP, admin=False, in_direct=True, parsed=Help())
    if subcommand is None:
        return Invocation(typed, HELP, admin=False, in_direct=True, parsed=Help(unknown=typed))
    admin = subcommand.needs_admin(args)
    in_direct = subcommand.in_direct and not admin  # an admin's use acts on a channel
    words = [w for w in (a.strip() for a in args) if w]
    action = words[0].lower() if words else ""
    try:
        command = subcommand.parse(words, text)
    except CommandError as problem:
        return Invocation(typed, subcommand, admin, in_direct, None, problem, action)
    return Invocation(typed, subcommand, admin, in_direct, command, action=action)


def find_subcommand(name: str) -> Subcommand | None:
    return COMMANDS_BY_NAME.get(name.strip().lower())


def works_in_direct(name: str, args: Sequence[str]) -> bool:
    """Whether ``/quiz NAME ARGS`` may run in direct messages with the bot: only a subcommand
    declared ``in_direct``, and never an admin's use (it would act on a channel). An unknown
    one gets help, which works anywhere."""
    return parse_invocation(name, args).in_direct


def direct_refusal(name: str) -> str:
    """What a member is told who ran ``/quiz NAME`` in direct messages, where it cannot run."""
    return (
        f"`/quiz {name.strip().lower()}` works only in a channel: run it in the quiz's "
        f"channel. In direct messages with me you can use {_usable_in_direct()}."
    )


def _usable_in_direct() -> str:
    return ", ".join(f"`/quiz {c.name}`" for c in QUIZ_COMMANDS if c.in_direct)


def parse_command(name: str, args: Sequence[str], text: str | None = None) -> QuizCommand:
    """Parse ``/quiz NAME ARGS...``; raises CommandError with the right form on bad input.
    An unknown subcommand gives Help naming it rather than an error."""
    return parse_invocation(name, args, text).command
