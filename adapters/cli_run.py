"""`quizbot run` commands."""

from __future__ import annotations

import argparse
from typing import Any


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser("run", help="(not built yet)")
    parser.set_defaults(handler=lambda args: 2)
