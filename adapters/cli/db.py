"""`quizbot db` commands: apply migrations, copy to another database, take an online backup."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.settings import SettingsError, load_settings
from storage.copy import copy_database
from storage.database import (
    Database,
    configured_database,
    open_database,
    parse_database,
    parse_location,
)
from storage.errors import StorageError
from storage.sqlite.backup import backup_database

_DB_HELP = "the SQLite database file (default: QUIZBOT_DB_PATH, else quizbot.db)"
_URL_FORMS = "quizbot.db, sqlite:///quizbot.db or postgresql://user@host:5432/db"
_URL_HELP = f"{_URL_FORMS} (default: QUIZBOT_DATABASE_URL)"


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "db",
        help="database maintenance: migrate, copy, backup",
        description="Maintain the quiz database (SQLite or PostgreSQL).",
    )
    actions = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)

    migrate = actions.add_parser(
        "migrate",
        help="apply pending schema migrations",
        description="Apply the schema migrations the database does not have yet. The bot "
        "also does this at start-up; a database newer than this quizbot is refused.",
    )
    migrate.add_argument("--db", type=Path, metavar="PATH", help=_DB_HELP)
    migrate.add_argument("--url", metavar="URL", help=_URL_HELP)
    migrate.set_defaults(handler=run_migrate)

    copy = actions.add_parser(
        "copy",
        help="move an installation to another database (e.g. SQLite to PostgreSQL)",
        description="Copy every table, ids included, into an empty database (migrated "
        "first), in one transaction; the rows of each table are counted on both sides at "
        "the end. Stop the bot first: what it writes during the copy is not copied.",
    )
    copy.add_argument(
        "--from", dest="source", required=True, metavar="URL", help=f"the source: {_URL_FORMS}"
    )
    copy.add_argument(
        "--to", dest="target", required=True, metavar="URL", help="the empty target, same forms"
    )
    copy.set_defaults(handler=run_copy)

    backup = actions.add_parser(
        "backup",
        help="copy the database to a new file, safely while the bot runs",
        description="Copy the database with SQLite's online backup API into a new file. "
        "Safe while the bot is running and writing; the copy is integrity-checked.",
    )
    backup.add_argument("path", type=Path, metavar="PATH", help="the backup file to create")
    backup.add_argument("--db", type=Path, metavar="PATH", help=_DB_HELP)
    backup.set_defaults(handler=run_backup)


def run_migrate(args: argparse.Namespace) -> int:
    return _report_errors(_migrate, args)


def run_backup(args: argparse.Namespace) -> int:
    return _report_errors(_backup, args)


def run_copy(args: argparse.Namespace) -> int:
    return _report_errors(_copy, args)


async def _migrate(args: argparse.Namespace) -> str:
    database = _database(args)
    async with open_database(database) as store:
        report = store.migration
    assert report is not None
    if report.applied == 0:
        return f"{database}: schema is up to date (version {report.to_version})"
    return (
        f"{database}: migrated from schema version {report.from_version} to {report.to_version}"
        f" ({report.applied} migration{'s' if report.applied != 1 else ''})"
    )


async def _copy(args: argparse.Namespace) -> str:
    source, target = parse_location(args.source), parse_location(args.target)
    report = await copy_database(source, target)
    figures = ", ".join(f"{table} {n}" for table, n in report.counts.items() if n)
    return f"copied {report.total} rows from {source} to {target}; counts match ({figures})"


def _database(args: argparse.Namespace) -> Database:
    if args.url is not None:
        return parse_location(args.url)
    if args.db is not None:
        return parse_database(None, Path(args.db))
    return configured_database(load_settings())


async def _backup(args: argparse.Namespace) -> str:
    source = _database_path(args)
    report = await backup_database(source, args.path)
    return (
        f"backed up {source} to {report.target}"
        f" ({report.size_bytes} bytes, schema version {report.schema_version})"
    )


def _database_path(args: argparse.Namespace) -> Path:
    if args.db is not None:
        return Path(args.db)
    return load_settings().db_path


def _report_errors(action: Any, args: argparse.Namespace) -> int:
    try:
        message: str = asyncio.run(action(args))
    except (StorageError, SettingsError, ValidationError, sqlite3.Error, OSError) as error:
        print(f"quizbot db {args.db_command}: error: {error}", file=sys.stderr)
        return 1
    print(message)
    return 0
