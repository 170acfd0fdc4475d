"""Which question a channel gets next."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from questions.pack import Difficulty


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
    questions: Mapping[int, str],
    enabled_topics: Collection[str] | None,
    topic: str | None = None,
    *,
    difficulty: Difficulty | None = None,
    difficulties: Mapping[int, Difficulty | None] | None = None,
) -> list[int]:
    """Question ids (mapped to their topic) of the enabled topics, or of ``topic`` alone;
    with a ``difficulty``, only those ``difficulties`` gives that one (a question without a
    difficulty counts only when any is asked for: ``difficulty`` None)."""
    if topic is not None:
        chosen = sorted(q for q, t in questions.items() if t == topic)
    elif enabled_topics is None:
        chosen = sorted(questions)
    else:
        wanted = set(enabled_topics)
        chosen = sorted(q for q, t in questions.items() if t in wanted)
    if difficulty is None:
        return chosen
    levels = difficulties or {}
    return [q for q in chosen if levels.get(q) is difficulty]


def none_eligible(
    difficulty: Difficulty | None, enabled_topics: Collection[str] | None, topic: str | None
) -> str:
    """What an admin is told when no question is eligible, and what to change."""
    if difficulty is None:
        return "No topic is enabled. Enable one with `/quiz topics enable TOPIC`."
    if topic is not None:
        return (
            f"No {difficulty} question in {topic}. Pick another topic, or another difficulty"
            " with `/quiz config difficulty easy|medium|hard|any`."
        )
    which = (
        "in any topic"
        if enabled_topics is None
        else f"in the enabled topics ({', '.join(sorted(enabled_topics))})"
    )
    return (
        f"No {difficulty} question {which}. Enable more topics with"
        " `/quiz topics enable TOPIC`, or pick another difficulty with"
        " `/quiz config difficulty easy|medium|hard|any`."
    )
