"""Every ``/quiz`` subcommand, as the features declare them.

Each feature declares its subcommands beside their handlers and typed commands (e.g.
:mod:`bot.practice.commands`) and lists them in its face (``bot/<feature>/feature.py``); the
composition root (:mod:`bot.features`) gives them to one :class:`CommandRegistry`, with
help first. Help, the admin and direct-message rules, the words grammar of Slack and the
console, and the Discord slash command are all derived from its subcommands, and one
invocation is parsed once, by :meth:`CommandRegistry.parse_invocation`. A :class:`Family`
groups related subcommands where a platform nests them (Discord); the composition root
lists the families.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.quiz_command.grammar import Subcommand
from bot.quiz_command.help import HELP
from bot.quiz_command.typed import CommandError, Help, QuizCommand


@dataclass(frozen=True, slots=True)
class Family:
    """Related subcommands offered together where a platform nests its commands."""

    name: str  # never a subcommand's name
    summary: str
    members: tuple[Subcommand, ...]


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
    usable_in_direct: str = ""  # the subcommands that work in direct messages, for a refusal

    @property
    def command(self) -> QuizCommand:
        """The typed command; raises the CommandError of a bad argument."""
        if self.problem is not None:
            raise self.problem
        assert self.parsed is not None  # one of the two is always set
        return self.parsed

    def direct_refusal(self) -> str:
        if not self.subcommand.in_direct or not self.action:
            return _direct_refusal(self.name, self.usable_in_direct)
        # refused as an admin's use of a command whose member use works here
        return (
            f"`/quiz {self.name} {self.action}` changes a channel: run it in the quiz's"
            f" channel. `/quiz {self.name}` (as a member) works here. In direct messages with"
            f" me you can use {self.usable_in_direct}."
        )


class CommandRegistry:
    """The ``/quiz`` subcommands of the running features, help first."""

    def __init__(self, subcommands: Sequence[Subcommand]) -> None:
        self.subcommands: tuple[Subcommand, ...] = (HELP, *subcommands)
        self.by_name = {c.name: c for c in self.subcommands}
        if len(self.by_name) != len(self.subcommands):
            raise ValueError("two subcommands share a name")
        self._usable_in_direct = ", ".join(
            f"`/quiz {c.name}`" for c in self.subcommands if c.in_direct
        )

    def parse_invocation(
        self, name: str, args: Sequence[str], text: str | None = None
    ) -> Invocation:
        """``/quiz NAME ARGS...`` parsed once. ``text`` is the raw text ARGS were split from,
        if any: free text is taken from it as typed. An unknown subcommand is help naming
        it; a bad argument is kept as the invocation's problem, raised when its command is
        asked for, so the rules (direct messages, admins) still come first."""
        typed = name.strip().lower()
        subcommand = self.by_name.get(typed)
        usable = self._usable_in_direct
        if subcommand is HELP:  # whatever follows it
            return Invocation(typed, HELP, False, True, Help(), usable_in_direct=usable)
        if subcommand is None:
            return Invocation(
                typed, HELP, False, True, Help(unknown=typed), usable_in_direct=usable
            )
        admin = subcommand.needs_admin(args)
        in_direct = subcommand.in_direct and not admin  # an admin's use acts on a channel
        words = [w for w in (a.strip() for a in args) if w]
        action = words[0].lower() if words else ""
        try:
            command = subcommand.parse(words, text)
        except CommandError as problem:
            return Invocation(typed, subcommand, admin, in_direct, None, problem, action, usable)
        return Invocation(
            typed, subcommand, admin, in_direct, command, action=action, usable_in_direct=usable
        )

    def find_subcommand(self, name: str) -> Subcommand | None:
        return self.by_name.get(name.strip().lower())

    def works_in_direct(self, name: str, args: Sequence[str]) -> bool:
        """Whether ``/quiz NAME ARGS`` may run in direct messages with the bot: only a
        subcommand declared ``in_direct``, and never an admin's use (it would act on a
        channel). An unknown one gets help, which works anywhere."""
        return self.parse_invocation(name, args).in_direct

    def direct_refusal(self, name: str) -> str:
        """What a member is told who ran ``/quiz NAME`` in direct messages, where it cannot
        run."""
        return _direct_refusal(name, self._usable_in_direct)

    def parse_command(self, name: str, args: Sequence[str], text: str | None = None) -> QuizCommand:
        """Parse ``/quiz NAME ARGS...``; raises CommandError with the right form on bad
        input. An unknown subcommand gives Help naming it rather than an error."""
        return self.parse_invocation(name, args, text).command

    @functools.cached_property
    def help_lines(self) -> tuple[tuple[str, str, bool], ...]:
        return tuple(line for c in self.subcommands for line in c.usages())

    @functools.cached_property
    def direct_help_lines(self) -> tuple[tuple[str, str, bool], ...]:
        """In direct messages only what works there, as a member runs it (an admin's use
        never does)."""
        return tuple((c.member_form(), c.summary, False) for c in self.subcommands if c.in_direct)

    @functools.cache  # noqa: B019 - one registry for the process's life
    def help_lines_on(
        self, paths: tuple[tuple[str, str], ...], direct: bool
    ) -> tuple[tuple[str, str, bool], ...]:
        """The help's lines on a platform that runs some subcommands by other ``paths`` (its
        ``CommandPaths``: Discord's ``/quiz-admin now``, ``/quiz round grade``)."""
        run_as = dict(paths)
        lines = self.direct_help_lines if direct else self.help_lines
        return tuple((_run_as(form, run_as), summary, admin) for form, summary, admin in lines)


def _run_as(form: str, run_as: Mapping[str, str]) -> str:
    """``/quiz grade [ROUND]`` as ``/quiz round grade [ROUND]``."""
    name = form.split(" ", 2)[1]
    path = run_as.get(name)
    return form.replace(f"/quiz {name}", path, 1) if path else form


def _direct_refusal(name: str, usable_in_direct: str) -> str:
    return (
        f"`/quiz {name.strip().lower()}` works only in a channel: run it in the quiz's "
        f"channel. In direct messages with me you can use {usable_in_direct}."
    )
