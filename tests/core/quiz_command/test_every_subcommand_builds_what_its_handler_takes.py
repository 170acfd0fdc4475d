"""A subcommand is declared once, beside its handler: what its builder returns is a typed
command its handler accepts, so the parse and the handler cannot drift apart."""

from __future__ import annotations

import importlib
import pkgutil
import typing
from collections.abc import Iterator
from datetime import date

import pytest

import bot
from bot.features import QUIZ_SUBCOMMANDS
from bot.quiz_command.grammar import Subcommand
from bot.quiz_command.help import HELP
from bot.quiz_command.typed import CommandError, QuizCommand


def sample_words(subcommand: Subcommand) -> Iterator[list[str]]:
    """The words of its example, none at all, and one use of each setting."""
    yield subcommand.example_on(date(2027, 3, 1)).split()[2:]
    yield []
    for setting in subcommand.settings:
        value = setting.value
        word = value.choices[0] if value.choices else {"emoji": "🎉"}.get(value.kind, "1")
        yield [setting.name, word]


def accepted(subcommand: Subcommand) -> object:
    hints = typing.get_type_hints(subcommand.handler)
    return hints["command"]


@pytest.mark.parametrize("subcommand", QUIZ_SUBCOMMANDS, ids=lambda s: s.name)
def test_what_the_builder_returns_is_what_the_handler_takes(subcommand: Subcommand) -> None:
    takes = accepted(subcommand)
    built = []
    for words in sample_words(subcommand):
        try:
            built.append(subcommand.parse(words))
        except CommandError:
            continue  # e.g. ``/quiz flag`` needs its reason
    assert built, f"/quiz {subcommand.name}: none of its samples parsed"
    for command in built:
        assert isinstance(command, QuizCommand)
        assert isinstance(command, takes), f"/quiz {subcommand.name} built {command!r}"  # type: ignore[arg-type]


@pytest.mark.parametrize("subcommand", QUIZ_SUBCOMMANDS, ids=lambda s: s.name)
def test_every_handler_takes_typed_commands_only(subcommand: Subcommand) -> None:
    takes = accepted(subcommand)
    members = typing.get_args(takes) or (takes,)
    assert all(isinstance(t, type) and issubclass(t, QuizCommand) for t in members)


def declared_subcommands() -> Iterator[tuple[str, Subcommand]]:
    """Every Subcommand a module of a feature package (or the generic help) declares, each
    once, named where it is first found."""
    seen: set[int] = set()
    for package in pkgutil.iter_modules(bot.__path__):
        if not package.ispkg:
            continue
        prefix = f"bot.{package.name}."
        for found in pkgutil.walk_packages([f"{bot.__path__[0]}/{package.name}"], prefix):
            module = importlib.import_module(found.name)
            for attribute, value in vars(module).items():
                if isinstance(value, Subcommand) and id(value) not in seen:
                    seen.add(id(value))
                    yield f"{found.name}.{attribute}", value
    if id(HELP) not in seen:
        yield "bot.quiz_command.help.HELP", HELP


def test_every_declared_subcommand_is_in_the_registry() -> None:
    declared = list(declared_subcommands())
    assert len(declared) >= len(QUIZ_SUBCOMMANDS)
    assert [where for where, s in declared if s not in QUIZ_SUBCOMMANDS] == []
