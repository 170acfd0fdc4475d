"""The question pack model: what a pack file (YAML) must contain."""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class Difficulty(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Question(BaseModel):
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

    def content_hash(self) -> str:
        """A digest of the texts, so that an edited question can be told from the old one."""
        payload = json.dumps(
            [self.question, self.outline, list(self.follow_ups)], ensure_ascii=False
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:16]


class Pack(BaseModel):
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
