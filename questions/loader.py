"""Load pack files, reporting every problem as ``file:line: field: message``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

import yaml
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from questions.catalog import Catalog
from questions.errors import QuizError
from questions.pack import FollowUp, Pack
from questions.yaml_positions import (
    Location,
    PositionedDocument,
    duplicate_keys,
    line_of,
    parse_with_positions,
)

PACK_SUFFIXES = (".yaml", ".yml")
WHOLE_FILE = "(file)"
WHOLE_PACK = "(pack)"
MAX_NESTING = 100  # collections in collections; a pack has a handful, PyYAML fails near 300


@dataclass(frozen=True, slots=True)
class PackProblem:
    """One problem in a pack file, with where it is."""

    file: Path
    line: int  # 1-based; 0 when the problem is the file itself (missing, unreadable)
    field: str  # a dotted path such as ``questions[3].outline``
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.field}: {self.message}"


class PackError(QuizError):
    """Pack files with problems; the message lists each one with its place."""

    def __init__(self, problems: Sequence[PackProblem]) -> None:
        self.problems: list[PackProblem] = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def bundled_packs_dir() -> Path:
    return Path(__file__).resolve().parent / "packs"


def load_pack(path: Path) -> Pack:
    return _parse(read_text(path), path)[0]


def parse_pack(text: str, file: Path) -> Pack:
    """Validate pack YAML held in memory; ``file`` is only used in the problems reported."""
    return _parse(text, file)[0]


def load_packs(paths: Sequence[Path], *, beside: Mapping[str, Path] | None = None) -> list[Pack]:
    """Load files and each ``*.yaml``/``*.yml`` of directories; raises all problems at once.
    ``beside``: the ids of packs loaded with these (the bundled ones), by their files; a
    pack of another file may not take one."""
    problems: list[PackProblem] = []
    packs: list[Pack] = []
    owner_of_id: dict[str, Path] = {}
    taken = beside or {}
    for file in _pack_files(paths, problems):
        try:
            pack, id_line = _parse(read_text(file), file)
        except PackError as exc:
            problems.extend(exc.problems)
            continue
        owner = taken.get(pack.id)
        if owner is not None and owner.resolve() != file.resolve():
            message = f"pack id {pack.id!r} is already used by the bundled pack {owner}"
            problems.append(PackProblem(file, id_line, "id", message))
            continue
        if pack.id in owner_of_id:
            message = f"pack id {pack.id!r} is already used by {owner_of_id[pack.id]}"
            problems.append(PackProblem(file, id_line, "id", message))
            continue
        owner_of_id[pack.id] = file
        packs.append(pack)
    if problems:
        raise PackError(problems)
    return packs


def bundled_pack_files() -> dict[str, Path]:
    """The bundled packs' ids, each with its file."""
    return {load_pack(file).id: file for file in _pack_files([bundled_packs_dir()], [])}


def load_catalog(extra_dirs: Sequence[Path] = ()) -> Catalog:
    return Catalog(load_packs([bundled_packs_dir(), *extra_dirs]))


def read_text(path: Path) -> str:
    """The file as text (a BOM dropped, as spreadsheets write one); raises PackError naming
    the line and column of a byte that is not UTF-8, or why the file cannot be read."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise PackError(
            [PackProblem(path, 0, WHOLE_FILE, f"cannot read: {exc.strerror}")]
        ) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - line_start + 1  # in bytes
        message = f"not UTF-8 text: byte 0x{raw[exc.start]:02x} in column {column}"
        raise PackError([PackProblem(path, line, WHOLE_FILE, message)]) from None


def _pack_files(paths: Iterable[Path], problems: list[PackProblem]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix in PACK_SUFFIXES and p.is_file())
            if not found:
                problems.append(PackProblem(path, 0, WHOLE_FILE, "no *.yaml or *.yml files here"))
            files.extend(found)
        elif path.exists():
            files.append(path)
        else:
            problems.append(PackProblem(path, 0, WHOLE_FILE, "no such file or directory"))
    unique: dict[Path, Path] = {}
    for file in files:
        unique.setdefault(file.resolve(), file)
    return list(unique.values())


def _parse(text: str, file: Path) -> tuple[Pack, int]:
    """The pack and the line of its ``id``, or a PackError with every problem found."""
    try:
        return _parse_document(text, file)
    except RecursionError:  # PyYAML composes (and we walk) nested collections recursively
        line = _too_deep_line(text)
        message = f"invalid YAML: nested too deeply (over {MAX_NESTING} levels)"
        raise PackError([PackProblem(file, line, "(yaml)", message)]) from None


def _too_deep_line(text: str) -> int:
    """The line where ``text`` nests collections deeper than MAX_NESTING (1 if it never
    does), found by PyYAML's parser, which reads events without recursing."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_NESTING and event.start_mark is not None:
                    return int(event.start_mark.line) + 1
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        pass
    return 1


def _parse_document(text: str, file: Path) -> tuple[Pack, int]:
    try:
        document = parse_with_positions(text)
    except yaml.YAMLError as exc:
        raise PackError([_syntax_problem(exc, text, file)]) from None
    root = document.root
    if root is None:
        raise PackError([PackProblem(file, 1, WHOLE_PACK, "the file is empty")])
    if not isinstance(document.data, dict):
        message = "expected a mapping with id, title, version and questions"
        raise PackError([PackProblem(file, line_of(root, ()), WHOLE_PACK, message)])

    problems = [
        PackProblem(
            file,
            dup.line,
            field_path(dup.location),
            f"duplicate key (first at line {dup.first_line})",
        )
        for dup in duplicate_keys(root)
    ]
    id_problems = _duplicate_question_ids(document, file)
    problems.extend(id_problems)
    try:
        pack = Pack.model_validate(document.data)
    except ValidationError as exc:
        for error in exc.errors():
            if id_problems and _is_duplicate_id_error(error):
                continue  # already reported above, at the line of the second occurrence
            if _is_cascade_of_refused_questions(error):
                continue
            location = error["loc"]
            problems.append(
                PackProblem(
                    file, line_of(root, location), field_path(location), describe_error(error)
                )
            )
    else:
        if not problems:
            return pack, line_of(root, ("id",))
    raise PackError(sorted(problems, key=lambda p: p.line))


def _syntax_problem(exc: yaml.YAMLError, text: str, file: Path) -> PackProblem:
    line = 1
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        line = exc.problem_mark.line + 1
    elif isinstance(exc, yaml.reader.ReaderError):
        line = text.count("\n", 0, exc.position) + 1
    detail = exc.problem if isinstance(exc, yaml.MarkedYAMLError) and exc.problem else str(exc)
    return PackProblem(file, line, "(yaml)", f"invalid YAML: {detail}")


def _duplicate_question_ids(document: PositionedDocument, file: Path) -> list[PackProblem]:
    assert isinstance(document.data, dict) and document.root is not None
    questions = document.data.get("questions")
    if not isinstance(questions, list):
        return []
    first_index: dict[str, int] = {}
    problems: list[PackProblem] = []
    for index, question in enumerate(questions):
        if not isinstance(question, dict) or not isinstance(question.get("id"), str):
            continue
        question_id: str = question["id"]
        if question_id not in first_index:
            first_index[question_id] = index
            continue
        first = first_index[question_id]
        first_line = line_of(document.root, ("questions", first, "id"))
        location = ("questions", index, "id")
        message = (
            f"duplicate question id {question_id!r} "
            f"(first used by questions[{first}] at line {first_line})"
        )
        problems.append(
            PackProblem(file, line_of(document.root, location), field_path(location), message)
        )
    return problems


def _is_cascade_of_refused_questions(error: ErrorDetails) -> bool:
    """pydantic also says "no questions" when every question was refused; that misleads."""
    given = error.get("input")
    refused_all = isinstance(given, list) and len(given) > 0
    return error["type"] == "too_short" and tuple(error["loc"]) == ("questions",) and refused_all


def _is_duplicate_id_error(error: ErrorDetails) -> bool:
    return tuple(error["loc"]) == ("questions",) and error["type"] == "value_error"


def field_path(location: Location) -> str:
    """``("questions", 3, "outline")`` -> ``questions[3].outline``."""
    path = ""
    for part in location:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or WHOLE_PACK


def describe_error(error: ErrorDetails, root: type[BaseModel] = Pack) -> str:
    """One validation error in the words pack authors see (also used for chat forms, CSV).

    ``root`` is the model the error's location starts from: a pack, or one question.
    """
    kind, value, context = error["type"], error.get("input"), error.get("ctx") or {}
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        allowed = ", ".join(_model_at(error["loc"][:-1], root).model_fields)
        return f"unknown field (allowed: {allowed})"
    if kind == "string_too_short" or (kind == "string_type" and value is None):
        return "must not be empty"
    if kind == "string_type":
        return f"must be text, got {_describe(value)} (quote it)"
    if kind == "string_pattern_mismatch":
        return f"must be lowercase letters and digits separated by single '-', got {value!r}"
    if kind == "string_too_long":
        return f"must be at most {context.get('max_length')} characters"
    if kind == "enum":
        return f"must be one of {context.get('expected')}, got {value!r}"
    if kind == "too_short" and tuple(error["loc"]) == ("questions",):
        return "the pack must contain at least one question"
    if kind in ("tuple_type", "list_type"):
        return f"must be a list, got {_describe(value)}"
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        model = _model_at(error["loc"], root)
        fields = ", ".join(model.model_fields)
        text = "text or " if model is FollowUp else ""  # a follow-up may be plain text
        return f"must be {text}a mapping with the fields {fields}, got {_describe(value)}"
    if kind.startswith("int_"):
        return f"must be a whole number, got {value!r}"
    if kind == "greater_than_equal":
        return f"must be at least {context.get('ge')}, got {value!r}"
    if kind == "value_error":  # the model's own rule, said in its words
        return str(context.get("error", error["msg"]))
    return str(error["msg"])


def _model_at(location: Location, root: type[BaseModel]) -> type[BaseModel]:
    """The model whose fields sit at ``location`` under ``root``: the pack, a question, a
    follow-up, a correction."""
    model = root
    for part in location:
        if isinstance(part, int):
            continue  # an item of a list field: the list's model is already chosen
        field = model.model_fields.get(part)
        nested = None if field is None else _model_in(field.annotation)
        if nested is None:
            break
        model = nested
    return model


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model a field holds: itself, or inside ``tuple[...]``, ``Annotated`` or ``| None``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for argument in get_args(annotation):
        if (model := _model_in(argument)) is not None:
            return model
    return None


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"text {value!r}"
    return f"{type(value).__name__} {value!r}"
