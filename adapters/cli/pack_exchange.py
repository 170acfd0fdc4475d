"""`quizbot packs export | import-csv | flags`: move questions between chat, sheets and packs.

- ``export`` writes a workspace's own questions (approved suggestions) as a pack file;
- ``import-csv`` turns a spreadsheet into a pack file (see ``questions/csv_import.py``);
- ``flags`` lists the errata members flagged, for maintainers of the bundled packs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sqlite3
import sys
from pathlib import Path
from typing import Any

from adapters.cli.pack_files import PackWriteFailed, pack_text, write_new_file
from bot.bank_store import Flag, Workspace
from bot.settings import SettingsError, load_settings
from questions.csv_import import pack_from_csv
from questions.loader import PackError
from questions.pack import Pack
from questions.seed_import import slugify
from storage.errors import StorageError
from storage.migrations import bundled_migrations
from storage.sqlite_store import SqliteStore

_DB_HELP = "the database file (default: QUIZBOT_DB_PATH, else quizbot.db)"


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
        help="the workspace: Slack team id, Discord server id, 'local' on the console; "
        "PLATFORM:ID when two platforms share the id",
    )
    export.add_argument("--out", type=Path, required=True, metavar="FILE.yaml", help="pack file")
    export.add_argument("--db", type=Path, metavar="PATH", help=_DB_HELP)
    export.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    export.set_defaults(handler=_export)

    sheet = actions.add_parser(
        "import-csv",
        help="turn a spreadsheet (CSV) of questions into a pack file",
        description="Convert a CSV file with the columns id, topic, difficulty, question, "
        "outline, follow_ups, key_points (list cells separated by ' | ') into a pack file. "
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


def _database(args: argparse.Namespace) -> Path:
    return Path(args.db) if args.db is not None else load_settings().db_path


def _existing_database(args: argparse.Namespace) -> Path:
    """The database to read, as it is: never created, never migrated by a reading command
    (a newer CLI must not migrate a running bot's database under it)."""
    path = _database(args)
    if not path.is_file():
        raise StorageError(f"no database at {path}")
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    latest = bundled_migrations()[-1].version
    if version < latest:
        raise StorageError(
            f"{path} is at schema version {version}, older than this quizbot's {latest}: "
            "run `quizbot db migrate` first"
        )
    return path


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
    async with SqliteStore.open(_existing_database(args), run_migrations=False) as store:
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
        choices = ", ".join(f"{w.platform}:{w.workspace_id}" for w in matches)
        raise PackWriteFailed(f"{wanted!r} is on several platforms; give one of {choices}")
    listed = ", ".join(f"{w.platform}:{w.workspace_id}" for w in known) or "none yet"
    raise PackWriteFailed(f"no workspace {wanted!r} in the database (workspaces: {listed})")


# import-csv


def _import_csv(args: argparse.Namespace) -> int:
    sheet: Path = args.sheet
    try:
        text = sheet.read_text(encoding="utf-8-sig")  # a spreadsheet's UTF-8 export has a BOM
    except UnicodeDecodeError as exc:
        print(f"{sheet}:1: (file): not UTF-8 text ({exc.reason})", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{sheet}:0: (file): cannot read: {exc.strerror}", file=sys.stderr)
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
    async with SqliteStore.open(_existing_database(args), run_migrations=False) as store:
        flags = await store.bank.flags(open_only=not args.all)
    if not flags:
        return "no flags" if args.all else "no open flags"
    return "\n".join(describe_flag(flag) for flag in flags)


def describe_flag(flag: Flag) -> str:
    space = flag.workspace
    pack = "(workspace)" if flag.pack.startswith("workspace:") else flag.pack
    line = (
        f"f{flag.id}  {flag.created_at:%Y-%m-%d}  {space.platform}:{space.workspace_id}"
        f"  {pack}/{flag.question_key}  round #{flag.round_number}"
        f"  {flag.member.label()}: {flag.reason}"
    )
    if flag.resolved_at is not None:
        line += f"  [resolved {flag.resolved_at:%Y-%m-%d}: {flag.resolution}]"
    return line
