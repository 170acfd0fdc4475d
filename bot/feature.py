"""What a feature declares about itself, once, beside its code (``bot/<feature>/feature.py``).

The composition root (:mod:`bot.features`) loops over one list of these: the ``/quiz``
registry, the help's order and the events Discord must not defer (they may be answered with
a form) all come from it, so a new feature adds its declaration and one line to that list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.commands.grammar import Subcommand
from bot.kernel.events import ButtonPress, Command

OpensForm = Callable[[Command | ButtonPress], bool]


@dataclass(frozen=True, slots=True)
class Listed:
    """A subcommand and where help lists it (lower first, across every feature)."""

    rank: int
    subcommand: Subcommand


@dataclass(frozen=True, slots=True)
class Feature:
    """One feature's face: what it adds to the bot."""

    name: str
    subcommands: tuple[Listed, ...] = ()
    # whether an event may be answered with one of the feature's forms (a modal on Discord)
    opens_form: OpensForm | None = None


def subcommands_in_help_order(features: Iterable[Feature]) -> tuple[Subcommand, ...]:
    """Every feature's subcommands, in the order help lists them."""
    listed = sorted((item for f in features for item in f.subcommands), key=lambda i: i.rank)
    ranks = [item.rank for item in listed]
    if len(set(ranks)) != len(ranks):
        raise ValueError("two subcommands share a place in help")
    return tuple(item.subcommand for item in listed)


def may_open_form(features: Iterable[Feature], event: Command | ButtonPress) -> bool:
    """Whether the answer to ``event`` may be a form (Discord must then not defer it)."""
    return any(f.opens_form is not None and f.opens_form(event) for f in features)
