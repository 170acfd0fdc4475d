"""``quizbot run``: start the bot."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from adapters.ops.logs import configure_logging
from adapters.ops.runtime import run_bot
from adapters.platforms import PLATFORMS, choose_platforms, platform_names, setting_names
from bot.kernel.errors import PlatformError
from bot.settings import SettingsError, invalid_settings, load_settings
from questions.loader import PackError
from storage.database import configured_database
from storage.errors import StorageError


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "run",
        help="run the bot (the console platform when no tokens are configured)",
        description="Run the bot. With no platform tokens configured it runs on the console: "
        "channel #practice, you are the admin 'you'. Piped input is read as a script, and "
        "in a script nothing runs by itself while its lines are read (no scheduled question, "
        "reveal-after, last call, reminder, recap, pairing or practice timer): a line "
        "':wait 2h' lets two hours pass on the console's clock, and what falls due meanwhile "
        "happens in order.",
    )
    parser.add_argument("--platform", help=f"{platform_names()}, or e.g. discord,slack")
    parser.add_argument("--db", type=Path, help="SQLite database file (default ./quizbot.db)")
    parser.add_argument("--config", type=Path, help="a TOML settings file")
    parser.add_argument("--packs-dir", type=Path, action="append", help="extra pack directory")
    parser.add_argument("--log-level", help="DEBUG, INFO, WARNING, ERROR")
    parser.add_argument(
        "--log-format", choices=("text", "json"), help="text (default) or json: one object a line"
    )
    parser.add_argument(
        "--http-port", type=int, help="serve /healthz and /metrics on this port (off by default)"
    )
    for plugin in PLATFORMS:
        for flag in plugin.flags:
            flag.add_to(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(
            args.config,
            platform=args.platform,
            also_known=setting_names(),
            db_path=args.db,
            packs_dir=args.packs_dir,
            log_level=args.log_level,
            log_format=args.log_format,
            http_port=args.http_port,
        )
        flags = {flag.setting: getattr(args, flag.setting) for p in PLATFORMS for flag in p.flags}
        platforms = choose_platforms(settings, args.config, **flags)
        platforms.check()
    except SettingsError as problem:
        print(f"quizbot: {problem}", file=sys.stderr)
        return 2
    except ValidationError as problem:
        for line in invalid_settings(problem):
            print(f"quizbot: {line}", file=sys.stderr)
        return 2
    level = settings.log_level.upper()
    if args.log_level is None and platforms.names == ["console"]:
        level = "WARNING"  # keep the console transcript readable
    try:
        configure_logging(settings, level=level, also=[p.settings for p in platforms.every])
    except SettingsError as problem:
        print(f"quizbot: {problem}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(
            run_bot(settings, stdin=sys.stdin, stdout=sys.stdout, platforms=platforms)
        )
    except PlatformError as problem:  # e.g. a token the platform refused at start-up
        print(f"quizbot: {problem}", file=sys.stderr)
        return 1
    except (StorageError, sqlite3.DatabaseError) as problem:  # e.g. a newer schema, not SQLite
        print(f"quizbot: database {configured_database(settings)}: {problem}", file=sys.stderr)
        return 1
    except PackError as problem:  # a QUIZBOT_PACKS_DIR / --packs-dir file: file:line: field
        for line in str(problem).splitlines():
            print(f"quizbot: {line}", file=sys.stderr)
        return 1
