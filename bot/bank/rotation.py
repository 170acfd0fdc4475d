"""Which question a channel gets next."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence


def pick_question(
    eligible: Sequence[int], ask_counts: Mapping[int, int], rng: random.Random
) -> int | None:
    """A question asked no more often than any other eligible one.

    So no question repeats in a channel until every eligible question was
    asked, then the cycle restarts; a question added later (or a topic just
    enabled) is asked before the older ones come round again. Deterministic
    for a seeded ``rng``.
    """
    if not eligible:
        return None
    fewest = min(ask_counts.get(q, 0) for q in eligible)
    candidates = sorted(q for q in eligible if ask_counts.get(q, 0) == fewest)
    return rng.choice(candidates)


def eligible_questions(
    questions: Mapping[int, str], enabled_topics: Collection[str] | None, topic: str | None = None
) -> list[int]:
    """Question ids (mapped to their topic) of the enabled topics, or of ``topic`` alone."""
    if topic is not None:
        return sorted(q for q, t in questions.items() if t == topic)
    if enabled_topics is None:
        return sorted(questions)
    wanted = set(enabled_topics)
    return sorted(q for q, t in questions.items() if t in wanted)
