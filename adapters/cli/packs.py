"""`quizbot packs` commands: validate pack files, import seed documents, list packs, list
overlapping questions (and, in ``pack_exchange``, export a workspace's questions, import a
CSV sheet, list flags)."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from adapters.cli import pack_exchange
from adapters.cli.pack_files import SCHEMA_HINT, PackWriteFailed, write_new_file
from questions import overlap_report
from questions.loader import (
    PackError,
    bundled_pack_files,
    bundled_packs_dir,
    field_path,
    load_packs,
    parse_pack,
)
from questions.pack import Pack, Slug
from questions.seed_import import SeedFormatError, pack_from_seed, pack_to_yaml, parse_seed, slugify

SLUG: TypeAdapter[str] = TypeAdapter(Slug)


def register(subparsers: Any) -> None:
    packs: argparse.ArgumentParser = subparsers.add_parser(
        "packs",
        help="validate, import, list and export question packs",
        description="Question packs: validate pack files, import a seed document or a CSV "
        "sheet, list the packs and the questions that overlap, export a workspace's own "
        "questions, list flagged questions.",
    )
    actions = packs.add_subparsers(dest="packs_command", metavar="ACTION", required=True)

    validate = actions.add_parser(
        "validate",
        help="check pack files; print each problem as file:line: field: message",
        description="Check pack files as the bot loads them beside the bundled pack (whose "
        "id they may not take). Exit 0 when all are valid, 1 otherwise.",
    )
    validate.add_argument(
        "paths", nargs="+", type=Path, metavar="PATH", help="a pack file or a directory of them"
    )
    validate.set_defaults(handler=_validate)

    convert = actions.add_parser(
        "import",
        help="convert a seed-format document (As asked / Sample answer outline) into a pack",
        description="Convert a seed-format document into a pack file. Nothing is written on error.",
    )
    convert.add_argument("document", type=Path, metavar="DOC.txt", help="the seed document")
    convert.add_argument("--out", type=Path, required=True, metavar="PACK.yaml", help="pack file")
    convert.add_argument("--id", dest="pack_id", help="pack id (default: from the file name)")
    convert.add_argument("--topic", help="topic of every question (default: the pack id)")
    convert.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    convert.set_defaults(handler=_import)

    listing = actions.add_parser(
        "list",
        help="show packs, topics and question counts",
        description="Show the bundled packs and those in --dir: topics and question counts.",
    )
    listing.add_argument(
        "--dir",
        dest="dirs",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="also list the packs in DIR (repeatable)",
    )
    listing.set_defaults(handler=_list)

    overlapping = actions.add_parser(
        "overlaps",
        help="list questions that ask the same thing, and the closest pairs by meaning",
        description="Run the bank's overlap checks (wording, worked computations, standard "
        "derivations, meaning) on packs and list what they find, then the closest pairs of "
        "questions and follow-ups by meaning with their scores. Exit 1 when any overlap is "
        "found.",
    )
    overlap_report.add_arguments(overlapping)
    overlapping.set_defaults(handler=_overlaps)
    pack_exchange.register(actions)


def _validate(args: argparse.Namespace) -> int:
    try:
        packs = load_packs(args.paths, beside=bundled_pack_files())  # as `run` loads them
    except PackError as exc:
        for problem in exc.problems:
            print(problem)
        files = len({p.file for p in exc.problems})
        print(f"{len(exc.problems)} problem(s) in {files} file(s)", file=sys.stderr)
        return 1
    questions = sum(len(p.questions) for p in packs)
    print(f"ok: {len(packs)} pack(s), {questions} question(s)")
    return 0


def _import(args: argparse.Namespace) -> int:
    try:
        pack, pack_yaml = _converted(args)
        write_new_file(args.out, pack_yaml, overwrite=args.force)
    except PackWriteFailed as exc:
        print(f"quizbot packs import: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}: pack {pack.id!r}, {len(pack.questions)} question(s)")
    return 0


def _converted(args: argparse.Namespace) -> tuple[Pack, str]:
    """The pack and the YAML text to write, checked to load back as the same pack."""
    document_path: Path = args.document
    try:
        text = document_path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise PackWriteFailed(f"{document_path}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise PackWriteFailed(f"{document_path}: cannot read: {exc.strerror}") from None
    try:
        document = parse_seed(text)
    except SeedFormatError as exc:
        raise PackWriteFailed(f"{document_path}:{exc.line}: {exc.detail}") from None

    pack_id = _slug_option("--id", args.pack_id) or slugify(document_path.stem)
    if not pack_id:
        raise PackWriteFailed(f"cannot derive a pack id from {document_path.name!r}; pass --id")
    topic = _slug_option("--topic", args.topic) or pack_id
    try:
        pack = pack_from_seed(document, pack_id=pack_id, topic=topic)
    except ValidationError as exc:
        problems = (f"{field_path(e['loc'])}: {e['msg']}" for e in exc.errors())
        raise PackWriteFailed("; ".join(dict.fromkeys(problems))) from None
    pack_yaml = SCHEMA_HINT + pack_to_yaml(pack)
    try:  # the written file must load back to the same pack
        reloaded: Pack | None = parse_pack(pack_yaml, args.out)
    except PackError:
        reloaded = None
    if reloaded != pack:
        raise PackWriteFailed("internal error: the generated YAML does not load back identically")
    return pack, pack_yaml


def _slug_option(option: str, value: str | None) -> str | None:
    try:
        return None if value is None else SLUG.validate_python(value)
    except ValidationError:
        raise PackWriteFailed(
            f"{option} {value!r}: use lowercase letters and digits separated by single '-'"
            " (at most 64 characters), e.g. 'gpu-memory'"
        ) from None


def _overlaps(args: argparse.Namespace) -> int:
    return overlap_report.run(args.paths or [bundled_packs_dir()], args.top)


def _list(args: argparse.Namespace) -> int:
    try:
        packs = load_packs([bundled_packs_dir(), *args.dirs])
    except PackError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    for pack in packs:
        print(f"{pack.id}  v{pack.version}  {len(pack.questions)} question(s)  {pack.title}")
        counts = Counter(q.topic for q in pack.questions)
        for topic in sorted(counts):
            print(f"  {topic}: {counts[topic]}")
    return 0
