"""The one list of the bot's features; everything that needs them all reads it here.

A new feature adds its face (``bot/<feature>/feature.py``, see :mod:`bot.feature`) and one
line to :data:`FEATURES`. The ``/quiz`` registry (and the module-level names below, which
the adapters use), the help's order, the events that may open a form and the tables an
erasure deletes or keeps come from it.
"""

from __future__ import annotations

from bot.away.feature import FEATURE as AWAY
from bot.bank.feature import FEATURE as BANK
from bot.blind.feature import FEATURE as BLIND
from bot.channels.feature import FEATURE as CHANNELS
from bot.coaching.feature import FEATURE as COACH
from bot.composition import Core
from bot.dashboard.feature import FEATURE as DASHBOARD
from bot.feature import Feature, erased_tables, kept_tables, subcommands_in_help_order
from bot.feature import may_open_form as _may_open_form
from bot.kernel.events import ButtonPress, Command
from bot.learning.feature import FEATURE as LEARNING
from bot.member_data.feature import FEATURE as MEMBER_DATA
from bot.notices.feature import FEATURE as NOTICES
from bot.pairing.feature import FEATURE as PAIRING
from bot.practice.feature import FEATURE as PRACTICE
from bot.quiz_command.registry import CommandRegistry, Family
from bot.recaps.feature import FEATURE as RECAPS
from bot.reminders.feature import FEATURE as REMINDERS
from bot.reviews.feature import FEATURE as REVIEWS
from bot.rounds.feature import FEATURE as ROUNDS
from bot.seasons.feature import FEATURE as SEASONS

# each face's build is given the one Core: mypy checks here that Core offers what each uses
FEATURES: tuple[Feature[Core], ...] = (
    ROUNDS,
    LEARNING,
    PRACTICE,
    BLIND,
    BANK,
    RECAPS,
    REMINDERS,
    AWAY,
    NOTICES,
    REVIEWS,
    PAIRING,
    COACH,
    SEASONS,
    MEMBER_DATA,
    CHANNELS,
    DASHBOARD,
)

# Every table an erasure deletes the member's rows from, and every table (or column) that
# names a member and is kept, with the reason: what each face declares it owns.
ERASED_TABLES = erased_tables(FEATURES)
KEPT_TABLES = kept_tables(FEATURES)

REGISTRY = CommandRegistry(subcommands_in_help_order(FEATURES))
QUIZ_SUBCOMMANDS = REGISTRY.subcommands
SUBCOMMANDS_BY_NAME = REGISTRY.by_name
parse_invocation = REGISTRY.parse_invocation
parse_command = REGISTRY.parse_command
find_subcommand = REGISTRY.find_subcommand
works_in_direct = REGISTRY.works_in_direct
direct_refusal = REGISTRY.direct_refusal


def _family(name: str, summary: str, *members: str) -> Family:
    return Family(name, summary, tuple(SUBCOMMANDS_BY_NAME[member] for member in members))


# Where commands nest (Discord's subcommand groups: `/quiz round grade`), these go under one
# word each, which keeps room on a command for more; the words of Slack and the console do
# not change (`/quiz grade`). A subcommand is in one family at most.
FAMILIES: tuple[Family, ...] = (
    _family(
        "round",
        "The day's question: answer, grade, tick, review, report",
        *("answer", "grade", "covered", "rate", "flag"),
    ),
    _family("questions", "The questions: topics, packs, suggest one", "topics", "packs", "suggest"),
    _family(
        "channel",
        "This channel's schedule, weekly recap and settings",
        *("schedule", "recap", "config"),
    ),
    _family(
        "reminders",
        "Your direct messages: a daily reminder, notices, time away",
        *("remind", "notify", "away"),
    ),
    _family("data", "Your own data: a copy of it, or erase it", "export", "forget"),
    _family(
        "team",
        "The team: this season's standings, the channel's stats, its page in the browser",
        *("season", "stats", "dashboard"),
    ),
)
FAMILY_OF = {member.name: family for family in FAMILIES for member in family.members}


def may_open_form(event: Command | ButtonPress) -> bool:
    """Whether the answer to ``event`` may be a form (Discord must then not defer it)."""
    return _may_open_form(FEATURES, event)
