"""The ``quizbot`` command line. Each command group lives in its own module of this package."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from adapters.cli import data, db, doctor, invite, packs, run

COMMAND_GROUPS = (run, packs, db, data, invite, doctor)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="quizbot",
        description="A daily interview-practice quiz for Discord, Slack and the console.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for group in COMMAND_GROUPS:
        group.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.handler(args)
    except KeyboardInterrupt:
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
