"""A member's expected recall per topic at a moment, from their memory cards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Protocol

from bot.learning.memory_model import MemoryModel


class CardFigures(Protocol):
    """What a forecast needs of a memory card (a ``MemoryCard`` has it)."""

    @property
    def question_id(self) -> int: ...
    @property
    def stability(self) -> float: ...
    @property
    def last_review(self) -> datetime: ...


def per_topic(
    model: MemoryModel, cards: Iterable[CardFigures], topics: Mapping[int, str], at: datetime
) -> dict[str, float]:
    """The mean expected recall at ``at`` of each topic's graded questions, as the
    workspace's ``model`` forecasts it."""
    per_topic: dict[str, list[float]] = {}
    for card in cards:
        topic = topics.get(card.question_id)
        if topic is not None:
            per_topic.setdefault(topic, []).append(
                model.recall_after(card.stability, card.last_review, at)
            )
    return {topic: average(values) for topic, values in per_topic.items()}


def average(values: Sequence[float]) -> float:
    """The arithmetic mean (``statistics.mean`` is exact, in fractions, and ten times slower)."""
    return sum(values) / len(values)
