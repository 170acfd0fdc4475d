"""Turn a spreadsheet (CSV) of questions into a pack, every cell checked as pack files are.

Columns (a header row, in any order): ``id, topic, difficulty, question, outline,
follow_ups, key_points``, and optionally ``follow_up_notes``. ``difficulty`` may be empty;
list cells (``follow_ups``, ``key_points``) separate their items with `` | ``;
``follow_up_notes`` holds each follow-up's notes in the same order, also separated by
`` | `` (an empty item: that follow-up has none). Problems are reported as
``file:row: column: message``, where row is the spreadsheet's row number (the header is
row 1), whatever line breaks the cells hold.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from pydantic import ValidationError

from questions.loader import WHOLE_FILE, PackError, PackProblem
from questions.pack import Pack, Question
from questions.question_check import QuestionInvalid, check_question, text_list

COLUMNS = ("id", "topic", "difficulty", "question", "outline", "follow_ups", "key_points")
NOTES_COLUMN = "follow_up_notes"  # optional: sheets made before notes existed still import
KNOWN_COLUMNS = (*COLUMNS, NOTES_COLUMN)
LIST_COLUMNS = ("follow_ups", "key_points")
LIST_SEPARATOR = " | "
HEADER_ROW = 1


def pack_from_csv(text: str, file: Path, *, pack_id: str, title: str) -> Pack:
    """The pack of the sheet's rows, or PackError with every problem found."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise PackError([PackProblem(file, HEADER_ROW, WHOLE_FILE, _header_hint("no header row"))])
    header = [cell.strip().lower() for cell in rows[0]]
    problems = _header_problems(header, file)
    if problems:
        raise PackError(problems)
    questions: list[Question] = []
    first_row_of: dict[str, int] = {}
    for number, cells in enumerate(rows[1:], start=HEADER_ROW + 1):
        if not any(cell.strip() for cell in cells):
            continue  # a blank line of the sheet
        if len(cells) > len(header):
            message = f"{len(cells)} cells, but the header names {len(header)} columns"
            problems.append(PackProblem(file, number, WHOLE_FILE, message))
            continue
        row = dict(zip(header, cells, strict=False))
        question = _row_question(row, file, number, problems)
        # an id is taken by its first row whatever else is wrong there: a later row with
        # the same id is a duplicate to fix as well, named in the same run
        question_id = row.get("id", "").strip()
        if question_id in first_row_of:
            message = (
                f"duplicate question id {question_id!r} (first at row {first_row_of[question_id]})"
            )
            problems.append(PackProblem(file, number, "id", message))
            continue
        if question_id:
            first_row_of[question_id] = number
        if question is not None:
            questions.append(question)
    if problems:
        raise PackError(problems)
    if not questions:
        raise PackError([PackProblem(file, HEADER_ROW, WHOLE_FILE, "the sheet has no questions")])
    try:
        return Pack(id=pack_id, title=title, questions=tuple(questions))
    except ValidationError as exc:
        messages = "; ".join(str(e["msg"]) for e in exc.errors())
        raise PackError([PackProblem(file, HEADER_ROW, "(pack)", messages)]) from None


def _row_question(
    row: dict[str, str], file: Path, number: int, problems: list[PackProblem]
) -> Question | None:
    """The row's question, or None with its problems added to ``problems``."""
    data = _question_data(row)
    if notes_problem := _attach_notes(data, row.get(NOTES_COLUMN, "")):
        problems.append(PackProblem(file, number, NOTES_COLUMN, notes_problem))
        return None
    try:
        return check_question(data)
    except QuestionInvalid as invalid:
        problems += [_cell_problem(file, number, p.field, p.message) for p in invalid.problems]
        return None


def _header_problems(header: list[str], file: Path) -> list[PackProblem]:
    problems = []
    for column in header:
        if column not in KNOWN_COLUMNS:
            message = f"unknown column {column!r} (columns: {', '.join(KNOWN_COLUMNS)})"
            problems.append(PackProblem(file, HEADER_ROW, column or "(empty)", message))
    seen: set[str] = set()
    for column in header:
        if column in seen:
            problems.append(PackProblem(file, HEADER_ROW, column, "column named twice"))
        seen.add(column)
    for column in COLUMNS:
        if column not in header:
            problems.append(PackProblem(file, HEADER_ROW, column, _header_hint("missing column")))
    return problems


def _header_hint(what: str) -> str:
    return f"{what}; the header row names the columns {', '.join(COLUMNS)}"


def _question_data(row: dict[str, str]) -> dict[str, object]:
    data: dict[str, object] = {
        column: row.get(column, "").strip() for column in COLUMNS if column not in LIST_COLUMNS
    }
    if not data["difficulty"]:
        del data["difficulty"]
    for column in LIST_COLUMNS:
        data[column] = text_list(row.get(column, ""), LIST_SEPARATOR)
    return data


def _attach_notes(data: dict[str, object], cell: str) -> str | None:
    """Pair the follow-ups with their notes; a problem's message when they do not pair."""
    if not cell.strip():
        return None
    notes = [item.strip() for item in cell.split(LIST_SEPARATOR)]
    asks = data["follow_ups"]
    assert isinstance(asks, list)
    if len(notes) > len(asks):
        return f"{len(notes)} notes for {len(asks)} follow-up(s); separate them with ' | '"
    data["follow_ups"] = [
        {"ask": ask, "notes": note} if note else ask
        for ask, note in zip(asks, [*notes, *[""] * (len(asks) - len(notes))], strict=True)
    ]
    return None


def _cell_problem(file: Path, row: int, field: str, message: str) -> PackProblem:
    """``key_points[2]`` is the third item of the key_points cell; ``follow_ups[1].notes``
    the second item of the follow_up_notes cell."""
    column, _, index = field.partition("[")
    if index:
        number, _, part = index.partition("]")
        if column == "follow_ups" and part == ".notes":
            column = NOTES_COLUMN
        message = f"item {int(number) + 1}: {message}"
    return PackProblem(file, row, column, message)
