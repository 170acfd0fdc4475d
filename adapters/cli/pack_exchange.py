"""`quizbot packs export | import-csv | flags`: move questions between chat, sheets and packs.

- ``export`` writes a workspace's own questions (approved suggestions) as a pack file;
- ``import-csv`` turns a spreadsheet into a pack file (see ``questions/csv_import.py``);
- ``flags`` lists the errata members flagged, for maintainers of the bundled packs.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any

from adapters.cli.pack_files import PackWriteFailed, pack_text, write_new_file
from adapters.platforms import workspace_names
from adapters.printable import printable
from bot.bank.store import Flag, Workspace
from bot.settings import SettingsError, load_settings
from questions.csv_import import pack_from_csv
from questions.loader import PackError, read_text
from questions.pack import Pack
from questions.seed_import import slugify
from storage.database import (
    Database,
    configured_database,
    open_existing_database,
    parse_database,
)
from storage.errors import StorageError

_DB_HELP = (
    "the SQLite database file (default: QUIZBOT_DATABASE_URL, else QUIZBOT_DB_PATH, "
    "else quizbot.db)"
)


def register(actions: Any) -> None:
    export = actions.add_parser(
        "export",
        help="write a workspace's own questions (approved suggestions) as a pack file",
        description="Write the questions a workspace approved from chat as a pack file, "
        "valid for `quizbot packs validate`. Nothing is written on error.",
    )
    export.add_argument(
        "--workspace",
        required=True,
        metavar="ID",
        help=f"the workspace: {workspace_names()}; PLATFORM:ID when two platforms share the id",
    )
    export.add_argument("--out", type=Path, required=True, metavar="FILE.yaml", help="pack file")
    export.add_argument("--db", type=Path, metavar="PATH", help=_DB_HELP)
    export.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    export.set_defaults(handler=_export)

    sheet = actions.add_parser(
        "import-csv",
        help="turn a spreadsheet (CSV) of questions into a pack file",
        description="Convert a CSV file with the columns id, topic, difficulty, question, "
        "outline, follow_ups, key_points (list cells separated by ' | '), and optionally "
        "follow_up_notes (each follow-up's notes, in order, separated by ' | '), into a pack file. "
        "Problems are printed as file:row: column: message; nothing is written on error.",
    )
    sheet.add_argument("sheet", type=Path, metavar="FILE.csv", help="the spreadsheet")
    sheet.add_argument("--out", type=Path, required=True, metavar="FILE.yaml", help="pack file")
    sheet.add_argument("--id", dest="pack_id", help="pack id (default: from the file name)")
    sheet.add_argument("--title", help="pack title (default: from the file name)")
    sheet.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    sheet.set_defaults(handler=_import_csv)

    flags = actions.add_parser(
        "flags",
        help="list the mistakes members flagged with /quiz flag",
        description="List the flags members raised on questions (open ones; --all for "
        "resolved ones too), so maintainers can correct the bundled packs.",
    )
    flags.add_argument("--db", type=Path, metavar="PATH", help=_DB_HELP)
    flags.add_argument("--all", action="store_true", help="also list resolved flags")
    flags.set_defaults(handler=_flags)


def _database(args: argparse.Namespace) -> Database:
    """``--db`` when given, else the bot's database: ``QUIZBOT_DATABASE_URL``, else the
    SQLite file of ``QUIZBOT_DB_PATH``."""
    if args.db is not None:
        return parse_database(None, Path(args.db))
    return configured_database(load_settings())


def _run(command: str, action: Any) -> int:
    try:
        message: str = asyncio.run(action)
    except PackWriteFailed as problem:
        print(f"quizbot packs {command}: {problem}", file=sys.stderr)
        return 1
    except (StorageError, SettingsError, sqlite3.Error, OSError) as error:
        print(f"quizbot packs {command}: error: {error}", file=sys.stderr)
        return 1
    print(message)
    return 0


# export


def _export(args: argparse.Namespace) -> int:
    return _run("export", _write_export(args))


async def _write_export(args: argparse.Namespace) -> str:
    async with open_existing_database(_database(args)) as store:
        workspace = _choose(args.workspace, await store.bank.workspaces())
        own = await store.bank.own_questions(workspace)
    if not own:
        raise PackWriteFailed(f"workspace {args.workspace!r} has no approved questions yet")
    pack = Pack(
        id=export_pack_id(workspace),
        title=f"Questions of the {workspace.platform} workspace {workspace.workspace_id}",
        description="Suggested in chat and approved by the workspace's admins.",
        questions=tuple(q.question for q in own),
    )
    write_new_file(args.out, pack_text(pack, args.out), overwrite=args.force)
    return f"wrote {args.out}: pack {pack.id!r}, {len(pack.questions)} question(s)"


def export_pack_id(workspace: Workspace) -> str:
    return slugify(f"{workspace.platform} {workspace.workspace_id}", max_length=64) or "workspace"


def _choose(wanted: str, known: list[Workspace]) -> Workspace:
    platform, _, workspace = wanted.rpartition(":")
    matches = [
        w for w in known if w.workspace_id == workspace and (not platform or w.platform == platform)
    ]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        choices = ", ".join(_workspace_name(w) for w in matches)
        raise PackWriteFailed(f"{wanted!r} is on several platforms; give one of {choices}")
    listed = ", ".join(_workspace_name(w) for w in known) or "none yet"
    raise PackWriteFailed(f"no workspace {wanted!r} in the database (workspaces: {listed})")


# import-csv


def _import_csv(args: argparse.Namespace) -> int:
    sheet: Path = args.sheet
    try:
        text = read_text(sheet)  # a spreadsheet's UTF-8 export has a BOM
    except PackError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    pack_id = args.pack_id or slugify(sheet.stem) or "sheet"
    try:
        pack = pack_from_csv(text, sheet, pack_id=pack_id, title=args.title or sheet.stem)
    except PackError as exc:
        for problem in exc.problems:
            print(problem)
        print(f"{len(exc.problems)} problem(s); nothing written", file=sys.stderr)
        return 1
    try:
        write_new_file(args.out, pack_text(pack, args.out), overwrite=args.force)
    except PackWriteFailed as problem:
        print(f"quizbot packs import-csv: {problem}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}: pack {pack.id!r}, {len(pack.questions)} question(s)")
    return 0


# flags


def _flags(args: argparse.Namespace) -> int:
    return _run("flags", _list_flags(args))


async def _list_flags(args: argparse.Namespace) -> str:
    async with open_existing_database(_database(args)) as store:
        flags = await store.bank.flags(open_only=not args.all)
    if not flags:
        return "no flags" if args.all else "no open flags"
    return "\n".join(describe_flag(flag) for flag in flags)


def describe_flag(flag: Flag) -> str:
    """One line; what members typed (the reason, their name) and the admin's resolution are
    printed with control characters escaped."""
    space = flag.workspace
    pack = "(workspace)" if flag.pack.startswith("workspace:") else flag.pack
    line = (
        f"f{flag.id}  {flag.created_at:%Y-%m-%d}  {_workspace_name(space)}"
        f"  {printable(pack)}/{printable(flag.question_key)}  round #{flag.round_number}"
        f"  {printable(flag.member.label())}: {printable(flag.reason)}"
    )
    if flag.resolved_at is not None:
        resolution = printable(flag.resolution or "")
        line += f"  [resolved {flag.resolved_at:%Y-%m-%d}: {resolution}]"
    return line


def _workspace_name(space: Workspace) -> str:
    return printable(f"{space.platform}:{space.workspace_id}")
