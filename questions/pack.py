"""The question pack model: what a pack file (YAML) must contain."""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

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
    follow_ups: tuple[Text, ...] = Field(
        default=(), description="The interviewer's follow-up questions; may be empty."
    )
    key_points: tuple[KeyPoint, ...] = Field(
        default=(),
        description=(
            f"{MIN_KEY_POINTS}-{MAX_KEY_POINTS} short points a strong answer covers, drawn from"
            " the outline; shown as a checklist at the reveal. May be omitted."
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

    def content_hash(self) -> str:
        """A digest of the texts, so that an edited question can be told from the old one."""
        texts: list[object] = [self.question, self.outline, list(self.follow_ups)]
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
