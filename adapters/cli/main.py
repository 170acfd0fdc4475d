"""The ``quizbot`` command line. Each command group lives in its own module of this package."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from adapters.cli import data, db, doctor, packs, run
from adapters.platforms import PLATFORMS

COMMAND_GROUPS = (run, packs, db, data, doctor)
READER_GONE = 141  # the shell's status of a process that SIGPIPE ended: 128 + 13


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="quizbot",
        description=f"A daily interview-practice quiz for {_titles()}.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for group in COMMAND_GROUPS:
        group.register(subparsers)
    for plugin in PLATFORMS:  # a platform's own commands: `quizbot discord invite-url`
        if plugin.cli_commands is not None:
            plugin.cli_commands(subparsers)
    return parser


def _titles() -> str:
    """``Discord, Slack and the console``: the console last, as the one needing nothing."""
    titles = sorted((plugin.title for plugin in PLATFORMS), key=lambda t: t.startswith("the "))
    return ", ".join(titles[:-1]) + " and " + titles[-1]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.handler(args)
        sys.stdout.flush()  # what is still buffered, here where a closed pipe is caught
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `quizbot packs list | head`: the reader stopped reading, which is no error. What
        # is still buffered goes nowhere, so flushing it at exit cannot raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return READER_GONE
    return result


if __name__ == "__main__":
    sys.exit(main())
