"""What every typed ``/quiz`` command shares: the base each feature's commands derive from,
the error of a bad argument, and help, the one command of no feature."""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.errors import Refused


class CommandError(Refused, ValueError):
    """A bad ``/quiz`` argument; the message gives the right form and an example."""


@dataclass(frozen=True, slots=True)
class QuizCommand:
    """What a ``/quiz`` invocation asks for, once parsed. Each feature declares its own
    typed commands beside their handlers (e.g. :mod:`bot.practice.commands`), all derived
    from this class, so the set of commands is whatever the features declare."""


@dataclass(frozen=True, slots=True)
class Help(QuizCommand):
    """Show the help card, with a note; for ``unknown``, a subcommand that does not exist,
    the commands it most likely meant and their names, not the whole help."""

    note: str = ""
    unknown: str = ""
