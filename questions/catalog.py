"""All questions the bot can ask: the loaded packs, looked up by (pack, question id)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from questions.pack import Pack, Question


@dataclass(frozen=True, slots=True)
class QuestionKey:
    """What the store records of a question: where it comes from, its topic, its content hash."""

    pack: str
    question: str
    topic: str
    content_hash: str


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """A question with the pack it comes from."""

    pack: str
    question: Question

    @property
    def key(self) -> QuestionKey:
        q = self.question
        return QuestionKey(self.pack, q.id, q.topic, q.content_hash())


class Catalog:
    """All loaded packs, looked up by (pack, question id)."""

    def __init__(self, packs: Sequence[Pack]) -> None:
        ids = [p.id for p in packs]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"two packs share the id {duplicates[0]!r}")
        self.packs: tuple[Pack, ...] = tuple(packs)
        self.entries: tuple[CatalogEntry, ...] = tuple(
            CatalogEntry(p.id, q) for p in packs for q in p.questions
        )
        self._by_key = {(e.pack, e.question.id): e for e in self.entries}

    def get(self, pack: str, question_id: str) -> CatalogEntry | None:
        return self._by_key.get((pack, question_id))

    def topics(self) -> list[str]:
        return sorted({e.question.topic for e in self.entries})

    def keys(self) -> list[QuestionKey]:
        return [e.key for e in self.entries]
