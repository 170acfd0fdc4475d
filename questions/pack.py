"""The question pack model: what a pack file (YAML) must contain."""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StringConstraints,
    field_validator,
    model_serializer,
)
from pydantic_core import PydanticCustomError

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
KeyPoint = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]

MIN_KEY_POINTS = 3
MAX_KEY_POINTS = 7


class Difficulty(StrEnum):
    """How hard a question is."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class FollowUp(BaseModel):
    """One follow-up question, and what a good answer to it contains."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ask: Text = Field(description="The follow-up question as the interviewer asks it.")
    notes: Text | None = Field(
        default=None,
        description=(
            "Reference notes: what a good answer contains, one point per line (2-4 lines"
            " read best). Shown with the outline after the reveal, never before."
        ),
    )

    @property
    def note_lines(self) -> tuple[str, ...]:
        """The notes, one point per line, blank lines left out."""
        if self.notes is None:
            return ()
        return tuple(line.strip() for line in self.notes.splitlines() if line.strip())

    @model_serializer(mode="wrap")
    def _plain_text_without_notes(self, handler: SerializerFunctionWrapHandler) -> Any:
        # A follow-up without notes is written as the plain text it always was, so packs,
        # exports and stored questions without notes keep their exact form.
        return self.ask if self.notes is None else handler(self)


def _follow_up_from_text(value: Any) -> Any:
    """A follow-up given as plain text (packs written before notes existed) is its ask."""
    if not isinstance(value, str):
        return value
    if not value.strip():  # reported at the follow-up itself, as before, not at its `ask`
        raise PydanticCustomError(
            "string_too_short", "String should have at least 1 character", {"min_length": 1}
        )
    return {"ask": value}


FollowUpItem = Annotated[
    FollowUp, BeforeValidator(_follow_up_from_text, json_schema_input_type=Text | FollowUp)
]


class Correction(BaseModel):
    """A fact the outline states wrongly or imprecisely, stated correctly with its source.

    For outlines that must stay verbatim (the seed bank): shown under the outline, so a
    grader does not mark a correct answer down.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    fact: Text = Field(description="The correct fact, said so that it stands on its own.")
    source: Text = Field(description="Where to check it: a primary source (vendor docs, paper).")


class Question(BaseModel):
    """One interview question: what is asked, the answer outline and the follow-ups."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Slug = Field(description="Stable id, unique in the pack: lowercase letters, digits, '-'.")
    topic: Slug = Field(description="The topic admins enable or disable, e.g. 'gpu-architecture'.")
    difficulty: Difficulty | None = None
    tags: tuple[Slug, ...] = ()
    question: Text = Field(description="The question as asked.")
    outline: Text = Field(
        description="The sample answer outline; any length, split across messages when long."
    )
    follow_ups: tuple[FollowUpItem, ...] = Field(
        default=(),
        description=(
            "The interviewer's follow-up questions; may be empty. Each is its text, or a"
            " mapping with `ask` and reference `notes`."
        ),
    )
    key_points: tuple[KeyPoint, ...] = Field(
        default=(),
        description=(
            f"{MIN_KEY_POINTS}-{MAX_KEY_POINTS} short points a strong answer covers, drawn from"
            " the outline; shown as a checklist at the reveal. May be omitted."
        ),
    )
    corrections: tuple[Correction, ...] = Field(
        default=(),
        description=(
            "Facts the outline gets wrong or imprecisely, each with its source; shown under"
            " the outline. For outlines kept verbatim; may be omitted."
        ),
    )

    @field_validator("key_points")
    @classmethod
    def _key_points_are_a_short_list(cls, points: tuple[str, ...]) -> tuple[str, ...]:
        if points and not MIN_KEY_POINTS <= len(points) <= MAX_KEY_POINTS:
            raise ValueError(
                f"give {MIN_KEY_POINTS} to {MAX_KEY_POINTS} key points, not {len(points)}"
            )
        return points

    @property
    def follow_up_asks(self) -> tuple[str, ...]:
        """The follow-up questions' texts, in order."""
        return tuple(follow_up.ask for follow_up in self.follow_ups)

    def content_hash(self) -> str:
        """A digest of the texts, so that an edited question can be told from the old one.

        The store keeps it beside the question's id (rounds, grades and memory cards refer
        to the id), so an edit of what members are asked and grade themselves against shows
        as a new hash: the question, the outline, the follow-ups' asks and the key points.
        A follow-up's notes and the outline's corrections are left out: they are reference
        material for grading the same question, refined over time, and adding them must not
        make a question members already answered look like a different one.
        """
        texts: list[object] = [self.question, self.outline, list(self.follow_up_asks)]
        if self.key_points:  # questions without key points keep the hash they always had
            texts.append(list(self.key_points))
        payload = json.dumps(texts, ensure_ascii=False)
        return hashlib.sha256(payload.encode()).hexdigest()[:16]


class Pack(BaseModel):
    """A named set of questions, loaded from one YAML file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Slug = Field(description="The pack id, e.g. 'ai-infra'.")
    title: Text
    description: str | None = None
    version: int = Field(default=1, ge=1)
    questions: tuple[Question, ...] = Field(min_length=1)

    @field_validator("questions")
    @classmethod
    def _ids_are_unique(cls, questions: tuple[Question, ...]) -> tuple[Question, ...]:
        seen: set[str] = set()
        for question in questions:
            if question.id in seen:
                raise ValueError(f"duplicate question id {question.id!r}")
            seen.add(question.id)
        return questions

    def topics(self) -> list[str]:
        return sorted({q.topic for q in self.questions})
