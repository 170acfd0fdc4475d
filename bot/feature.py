"""What a feature declares about itself, once, beside its code (``bot/<feature>/feature.py``).

The composition root (:mod:`bot.features`) loops over one list of these: the ``/quiz``
registry, the help's order and the events Discord must not defer (they may be answered with
a form) all come from it, so a new feature adds its declaration and one line to that list.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.kernel.dashboard_views import DashboardPage, DashboardSectionSource
from bot.kernel.events import ButtonPress, Command, DirectMessage, FormSubmit, Reply
from bot.kernel.followed import Followed
from bot.kernel.models import ChannelSettings
from bot.kernel.own_views import MeSectionSource, SettingOnPage
from bot.kernel.platform import Platform
from bot.kernel.render import Response
from bot.kernel.stores import ChannelChanges
from bot.outbox.performers import Performer
from bot.quiz_command.grammar import Subcommand
from bot.scheduling.scheduler import QuizScheduler, SlotHandler
from bot.scheduling.slot_plans import Planned, SlotPlan

OpensForm = Callable[[Command | ButtonPress], bool]
OnButton = Callable[[ButtonPress, Platform], Awaitable[Response | None]]
OnForm = Callable[[FormSubmit, Platform], Awaitable[Response | None]]
OnDirect = Callable[[DirectMessage, Platform], Awaitable[None]]
# A reply in a round's thread was recorded as an answer: a feature's follow-on work, which
# must queue what it does and never fail or hold up the reply.
OnAnswered = Callable[[Reply, ChannelSettings], Awaitable[None]]

# At start: read what is stored and catch up on the slots missed while the bot was down,
# given every stored channel and the platforms running here.
Begin = Callable[[Sequence[ChannelSettings], Collection[str]], Awaitable[None]]
PlanGroups = Callable[
    [Sequence[ChannelSettings], Collection[str]], Iterable[tuple[SlotPlan, Sequence[int]]]
]

# What a feature's build is given: each face names the narrow collaborators it uses (a
# Protocol); the composition root's one value offers them all, and mypy checks that it does.
Deps = TypeVar("Deps", contravariant=True)


@dataclass(frozen=True, slots=True)
class ButtonRoute:
    """The buttons a feature answers: those ``matches`` accepts, or (``matches`` None) any
    button no other feature's route accepts; one feature may take that fallback."""

    handle: OnButton
    matches: Callable[[ButtonPress], bool] | None = None


@dataclass(frozen=True, slots=True)
class FormRoute:
    """The forms a feature answers: those ``matches`` accepts, or (None) any other form."""

    handle: OnForm
    matches: Callable[[FormSubmit], bool] | None = None


@dataclass(frozen=True, slots=True)
class ChannelSchedule:
    """Scheduled work of a channel's (a recap, a pairing): the service plans each channel
    of a platform running here by ``plan`` (None: it does not fire) whenever the channel
    changes, and a scheduler (or, on a console script, passing time) calls ``on_slot``."""

    kind: str  # the scheduler job's name; one feature's
    begin: Begin
    plan: Callable[[ChannelSettings], SlotPlan | None]
    on_slot: SlotHandler
    # At start, instead of ``plan`` for each channel: the plans of the channels of the
    # platforms given, each beside the channels it is for (those that do not fire left out).
    plan_groups: PlanGroups | None = None


@dataclass(frozen=True, slots=True)
class OwnSchedule:
    """Scheduled work that plans itself (a member's reminder): it is handed its scheduler
    (None without background work) and keeps its plans there; ``plans`` are those it has
    now, each beside the id ``on_slot`` is handed (the member's)."""

    kind: str
    begin: Begin
    plans: Callable[[], Awaitable[Iterable[Planned]]]
    on_slot: SlotHandler
    fired_by: Callable[[QuizScheduler | None], None]


Schedule = ChannelSchedule | OwnSchedule

# Where replicas share a store: the rows of the feature's that another process may change,
# which this one then reads again (what it caches, what it has scheduled), given the store's
# change feed.
Follows = Callable[[ChannelChanges], Sequence[Followed[Any]]]


@dataclass(frozen=True, slots=True)
class OnMe:
    """A section the feature adds to ``/quiz me`` in a quiz channel, and where (lower first,
    across every feature, after the member's own figures)."""

    rank: int
    section: MeSectionSource


@dataclass(frozen=True, slots=True)
class OnPage:
    """A member setting the feature shows, with its button, on the member's page, and where."""

    rank: int
    setting: SettingOnPage


@dataclass(frozen=True, slots=True)
class OnDashboard:
    """A section the feature adds to a browser page (the lead's or a member's), and where
    (lower first, across every feature, on that page)."""

    page: DashboardPage
    rank: int
    section: DashboardSectionSource


@dataclass(frozen=True, slots=True)
class Parts:
    """What a built feature adds to the running core."""

    # the objects whose methods run its /quiz subcommands (bot.quiz_command.runner binds them)
    handlers: tuple[object, ...] = ()
    buttons: tuple[ButtonRoute, ...] = ()
    forms: tuple[FormRoute, ...] = ()
    direct: OnDirect | None = None
    answered: OnAnswered | None = None
    performers: tuple[Performer, ...] = ()
    schedules: tuple[Schedule, ...] = ()
    follows: Follows | None = None
    me_sections: tuple[OnMe, ...] = ()
    settings_on_page: tuple[OnPage, ...] = ()
    dashboard_sections: tuple[OnDashboard, ...] = ()


@dataclass(frozen=True, slots=True)
class ErasedTable:
    """A table of the feature's that holds members' data: an erasure deletes the member's
    rows from it (``MemberDataStore.erase_member``)."""

    table: str
    what: str = ""  # which of the member's rows, where that is not obvious


@dataclass(frozen=True, slots=True)
class KeptTable:
    """A table (``pairs``) or one column of it (``pairs.interviewer_id``) that names a
    member and keeps the row through an erasure, with the reason (nothing personal stays)."""

    table: str
    reason: str


MemberTable = ErasedTable | KeptTable


@dataclass(frozen=True, slots=True)
class Listed:
    """A subcommand and where help lists it (lower first, across every feature)."""

    rank: int
    subcommand: Subcommand


@dataclass(frozen=True, slots=True)
class Feature(Generic[Deps]):
    """One feature's face: what it adds to the bot."""

    name: str
    subcommands: tuple[Listed, ...] = ()
    # whether an event may be answered with one of the feature's forms (a modal on Discord)
    opens_form: OpensForm | None = None
    # its running parts, given what it uses
    build: Callable[[Deps], Parts] | None = None
    # its own store aggregates: their names on the Store (bot/store.py), which a backend
    # implements (a test checks that every aggregate there is one feature's or the core's)
    aggregates: tuple[str, ...] = ()
    # the tables it owns that name a member, each erased or kept (a test reads the schema
    # for every column that names a member and fails for a table no feature accounts for)
    member_tables: tuple[MemberTable, ...] = ()


def subcommands_in_help_order(features: Iterable[Feature[Deps]]) -> tuple[Subcommand, ...]:
    """Every feature's subcommands, in the order help lists them."""
    listed = sorted((item for f in features for item in f.subcommands), key=lambda i: i.rank)
    ranks = [item.rank for item in listed]
    if len(set(ranks)) != len(ranks):
        raise ValueError("two subcommands share a place in help")
    return tuple(item.subcommand for item in listed)


def erased_tables(features: Iterable[Feature[Deps]]) -> tuple[str, ...]:
    """Every table an erasure deletes the member's rows from, across the features."""
    return _once(
        [t.table for f in features for t in f.member_tables if isinstance(t, ErasedTable)],
        "erase",
    )


def kept_tables(features: Iterable[Feature[Deps]]) -> Mapping[str, str]:
    """Every table (or ``table.column``) that names a member and is kept, with the reason."""
    kept = [t for f in features for t in f.member_tables if isinstance(t, KeptTable)]
    _once([t.table for t in kept], "keep")
    return {t.table: t.reason for t in kept}


def _once(tables: list[str], what: str) -> tuple[str, ...]:
    twice = sorted({t for t in tables if tables.count(t) > 1})
    if twice:
        raise ValueError(f"two features {what} {', '.join(twice)}")
    return tuple(tables)


def may_open_form(features: Iterable[Feature[Deps]], event: Command | ButtonPress) -> bool:
    """Whether the answer to ``event`` may be a form (Discord must then not defer it)."""
    return any(f.opens_form is not None and f.opens_form(event) for f in features)


def button_handler(parts: Iterable[Parts], event: ButtonPress) -> OnButton:
    """The handler of a pressed button: the one route that accepts it, else the fallback."""
    return _route([(r.matches, r.handle) for p in parts for r in p.buttons], event, "buttons")


def form_handler(parts: Iterable[Parts], event: FormSubmit) -> OnForm:
    """The handler of a submitted form: the one route that accepts it, else the fallback."""
    return _route([(r.matches, r.handle) for p in parts for r in p.forms], event, "forms")


_E = TypeVar("_E")
_H = TypeVar("_H")


def _route(routes: list[tuple[Callable[[_E], bool] | None, _H]], event: _E, what: str) -> _H:
    fallbacks = [handle for matches, handle in routes if matches is None]
    if len(fallbacks) > 1:
        raise ValueError(f"two features take every other of the {what}")
    for matches, handle in routes:
        if matches is not None and matches(event):
            return handle
    if not fallbacks:
        raise LookupError(f"no feature answers {event!r}")
    return fallbacks[0]
