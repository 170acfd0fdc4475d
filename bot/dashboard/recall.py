"""A member's expected recall per topic at a moment, from their memory cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from bot.learning import memory_model


def per_topic(
    cards: Mapping[int, memory_model.MemoryCard], topics: Mapping[int, str], at: datetime
) -> dict[str, float]:
    per_topic: dict[str, list[float]] = {}
    for question_id, card in cards.items():
        topic = topics.get(question_id)
        if topic is not None:
            per_topic.setdefault(topic, []).append(memory_model.recall(card, at))
    return {topic: average(values) for topic, values in per_topic.items()}


def average(values: Sequence[float]) -> float:
    """The arithmetic mean (``statistics.mean`` is exact, in fractions, and ten times slower)."""
    return sum(values) / len(values)
