"""`quizbot data` commands: an admin's export of a channel and erasure of a member.

``export`` writes the channel's rounds, answers, votes, grades and reviews as one CSV file per
table. ``forget`` erases a member's data in every channel of their workspace, as
``/quiz forget me`` does, in one transaction; safe while the bot runs (a reminder is read
again when it is due; replicas sharing PostgreSQL are told).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from adapters.platforms import platform_names, workspace_names
from adapters.printable import printable
from bot.kernel.refs import ChannelRef, MemberRef
from bot.member_data.exports import table_csv
from bot.settings import SettingsError, invalid_settings, load_settings
from storage.database import (
    Database,
    configured_database,
    open_existing_database,
    parse_database,
    parse_location,
)
from storage.errors import StorageError

_URL_HELP = "quizbot.db, sqlite:///quizbot.db or postgresql://… (default: the configured one)"
_DB_HELP = (
    "the SQLite database file (default: QUIZBOT_DATABASE_URL, else QUIZBOT_DB_PATH, "
    "else quizbot.db)"
)
CHANNELS_LISTED = 10  # an unknown channel's error names this many of the stored ones


class DataCommandError(Exception):
    """What the admin is told when the command cannot do what was asked."""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "data",
        help="members' data: export a channel, erase a member",
        description="Export a channel's data as CSV, or erase a member's data.",
    )
    actions = parser.add_subparsers(dest="data_command", metavar="ACTION", required=True)

    export = actions.add_parser(
        "export",
        help="write a channel's rounds, answers, votes, grades and reviews as CSV",
        description="Write one CSV file per table (rounds, answers, votes, grades, reviews) of the "
        "channel into DIR, created if need be.",
    )
    export.add_argument("--channel", required=True, help="the channel's id on its platform")
    export.add_argument("--out", required=True, type=Path, metavar="DIR", help="the directory")
    _scope(export)
    export.set_defaults(handler=lambda args: _report_errors(_export, args))

    forget = actions.add_parser(
        "forget",
        help="erase a member's data in every channel of their workspace",
        description="Delete the member's answers, grades, cards, goal, reminder, practice "
        "sessions, notices, time away, reviews, bonuses, flags, suggestions not approved and "
        "their queued direct "
        "messages, in one transaction. What is kept, and why, is in the README.",
    )
    forget.add_argument(
        "--member", required=True, metavar="ID", help="the member's id on its platform"
    )
    _scope(forget)
    forget.set_defaults(handler=lambda args: _report_errors(_forget, args))


def _scope(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--platform", help=f"{platform_names()} (when the id is on several)")
    parser.add_argument("--workspace", help=f"the workspace: {workspace_names()} (likewise)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", type=Path, metavar="PATH", help=_DB_HELP)
    where.add_argument("--url", metavar="URL", help=_URL_HELP)


def _database(args: argparse.Namespace) -> Database:
    if args.url is not None:
        return parse_location(args.url)
    if args.db is not None:
        return parse_database(None, args.db)
    return configured_database(load_settings())


def _matches(args: argparse.Namespace, platform: str, workspace: str) -> bool:
    return (args.platform is None or args.platform == platform) and (
        args.workspace is None or args.workspace == workspace
    )


async def _export(args: argparse.Namespace) -> str:
    async with open_existing_database(_database(args)) as store:
        channels = await store.channels.list_channels()
        found = [
            c
            for c in channels
            if c.ref.channel_id == args.channel and _matches(args, c.ref.platform, c.ref.workspace)
        ]
        if not found:
            raise DataCommandError(_unknown_channel(args.channel, [c.ref for c in channels]))
        if len(found) != 1:
            raise DataCommandError(_which("channel", args.channel, [c.ref.label() for c in found]))
        tables = await store.member_data.channel_tables(found[0].id)
    args.out.mkdir(parents=True, exist_ok=True)
    for table, rows in tables.items():
        (args.out / f"{table}.csv").write_text(table_csv(rows), encoding="utf-8")
    counts = ", ".join(f"{table} {len(rows)}" for table, rows in tables.items())
    return f"wrote {len(tables)} CSV files to {args.out} ({counts})"


async def _forget(args: argparse.Namespace) -> str:
    async with open_existing_database(_database(args)) as store:
        found = [
            (member_id, ref)
            for member_id, ref in await store.member_data.members_named(args.member)
            if _matches(args, ref.platform, ref.workspace)
        ]
        if len(found) != 1:
            raise DataCommandError(_which("member", args.member, [_label(r) for _, r in found]))
        member_id, ref = found[0]
        erased = await store.member_data.erase_member(member_id, datetime.now(UTC))
    tables = ", ".join(f"{table} {n}" for table, n in erased.rows.items()) or "nothing stored"
    return f"erased {_label(ref)}: {erased.total} rows deleted ({tables})"


def _label(ref: MemberRef) -> str:
    return f"{ref.platform}:{ref.workspace}:{ref.member_id}"


def _unknown_channel(wanted: str, stored: list[ChannelRef]) -> str:
    """The error of a channel id that is not stored, naming those that are."""
    if not stored:
        return f"no channel {wanted!r} is stored: the database has no channels yet"
    listed = ", ".join(
        printable(f"{ref.channel_id} ({ref.platform}, workspace {ref.workspace})")
        for ref in stored[:CHANNELS_LISTED]
    )
    more = len(stored) - CHANNELS_LISTED
    if more > 0:
        listed += f" and {more} more"
    return f"no channel {wanted!r} is stored; stored channels: {listed}"


def _which(kind: str, name: str, found: list[str]) -> str:
    if not found:
        return f"no {kind} {name!r} is stored"
    return f"{kind} {name!r} is on several: {', '.join(found)}; give --platform and --workspace"


def _report_errors(action: Any, args: argparse.Namespace) -> int:
    try:
        message: str = asyncio.run(action(args))
    except ValidationError as invalid:  # a setting of the environment, named
        for line in invalid_settings(invalid):
            print(f"quizbot data {args.data_command}: error: {line}", file=sys.stderr)
        return 1
    except (DataCommandError, StorageError, SettingsError, sqlite3.Error, OSError) as error:
        print(f"quizbot data {args.data_command}: error: {error}", file=sys.stderr)
        return 1
    print(message)
    return 0
