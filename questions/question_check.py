"""Validate one question given as loose fields (a chat form, a CSV row) exactly as pack files
are validated: the same model, and the problems in the loader's words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from questions.loader import describe_error, field_path
from questions.pack import Question


@dataclass(frozen=True, slots=True)
class FieldProblem:
    """What is wrong with one field of a question, in the loader's words."""

    field: str  # ``key_points`` or ``key_points[2]``
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class QuestionInvalid(ValueError):
    """A question given as loose fields is not valid; ``problems`` says where."""

    def __init__(self, problems: list[FieldProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


def check_question(data: Mapping[str, Any]) -> Question:
    """The question, or QuestionInvalid naming every bad field."""
    try:
        return Question.model_validate(dict(data))
    except ValidationError as exc:
        problems = [
            FieldProblem(field_path(error["loc"]), describe_error(error, Question))
            for error in exc.errors()
        ]
        raise QuestionInvalid(problems) from None


def text_list(text: str, separator: str = "\n") -> list[str]:
    """List items of one text box or cell: one per line (or per ``separator``), blanks dropped."""
    return [item.strip() for item in text.split(separator) if item.strip()]
