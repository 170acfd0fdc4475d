"""Near-duplicate questions, found by a text similarity a reviewer can reason about.

A question's text becomes a bag of its lowercase words and adjacent word pairs, with
common English words left out; two questions are compared by the cosine of those
bags. Rewording one question into another ("How much memory does Adam need for a 7B
model?" / "For a 7B model, how much memory does Adam need?") keeps most words and
pairs, so it scores high; two questions on the same topic that ask different things
share a few terms and score low. :data:`NEAR_DUPLICATE_THRESHOLD` was set from the
bundled bank: its most similar pair of distinct questions scores well below it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise

from questions.pack import Question

NEAR_DUPLICATE_THRESHOLD = 0.5
"""Cosine similarity at or above which two question texts are near-duplicates."""

_WORD = re.compile(r"[a-z0-9]+(?:[.\-][a-z0-9]+)*")
_STOPWORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from",
    "how", "in", "is", "it", "its", "of", "on", "or", "that", "the", "their", "them", "then",
    "there", "these", "this", "to", "was", "what", "when", "where", "which", "who", "why",
    "will", "with", "would", "you", "your",
})  # fmt: skip


def text_features(text: str) -> Counter[str]:
    """The words (stopwords left out) and adjacent word pairs of ``text``."""
    words = [w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]
    pairs = (f"{a} {b}" for a, b in pairwise(words))
    return Counter([*words, *pairs])


def similarity(a: str, b: str) -> float:
    """Cosine similarity of the two texts' features, from 0 (nothing shared) to 1."""
    return cosine(text_features(a), text_features(b))


def cosine(fa: Counter[str], fb: Counter[str]) -> float:
    """Cosine similarity of two texts' features, for callers that compare each text often."""
    dot = sum(count * fb[feature] for feature, count in fa.items())
    norm = math.sqrt(sum(c * c for c in fa.values())) * math.sqrt(sum(c * c for c in fb.values()))
    return dot / norm if norm else 0.0


@dataclass(frozen=True, slots=True)
class NearDuplicate:
    """Two questions whose texts are nearly the same, and their similarity."""

    first: str
    second: str
    score: float

    def __str__(self) -> str:
        return f"{self.first!r} and {self.second!r} ask nearly the same ({self.score:.2f})"


def near_duplicates(
    questions: Sequence[Question], threshold: float = NEAR_DUPLICATE_THRESHOLD
) -> list[NearDuplicate]:
    """Every pair of ``questions`` whose texts score at or above ``threshold``, worst first."""
    found = [
        NearDuplicate(a.id, b.id, score)
        for a, b in combinations(questions, 2)
        if (score := similarity(a.question, b.question)) >= threshold
    ]
    return sorted(found, key=lambda pair: -pair.score)
